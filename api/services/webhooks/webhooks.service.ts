// Webhook endpoints for their owner (register, list, attempts, delete, rotate) and the reactor's side:
// turning a journal entry into one outbox row per subscribed endpoint.
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { AppError, validationError } from "../../lib/errors.ts";
import type { WebhookEndpointRow } from "../../db/webhooks.schema.ts";
import type { JournalEntry } from "../../repositories/journal.repository.ts";
import type { WebhooksRepository } from "../../repositories/webhooks.repository.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import type { RegisterBody } from "../../routes/webhooks/webhooks.schemas.ts";
import { missionIdOf, type WebhookDraft, type WebhookEvent } from "./events.ts";
import { assertPublicHost } from "./ssrf.ts";

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const ATTEMPTS_SHOWN = 100;

// Columns hold only what the route validated (events) or the dispatcher wrote (status).
const asEvents = (v: string[]) => v as WebhookEvent[];
type AttemptStatus = "succeeded" | "failed" | "gave_up";

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export const endpointView = (r: WebhookEndpointRow) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  enabled: r.disabledAt === null,
  disabledAt: r.disabledAt?.toISOString() ?? null,
  disabledReason: r.disabledReason,
  previousSecretExpiresAt: r.previousSecretExpiresAt && r.previousSecretExpiresAt > new Date() ? r.previousSecretExpiresAt.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
});

export function webhooksService(deps: {
  repo: WebhooksRepository;
  users: { findByAddresses(addresses: string[]): Promise<UserRow[]> };
  allowPrivateUrls: boolean;
}) {
  const { repo } = deps;

  async function owned(user: UserRow, id: string): Promise<WebhookEndpointRow> {
    const row = await repo.findForUser(id, user.id);
    // Someone else's endpoint is as unknown to the caller as a missing one.
    if (!row) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
    return row;
  }

  return {
    async register(user: UserRow, body: z.infer<typeof RegisterBody>) {
      if (!deps.allowPrivateUrls) {
        try {
          await assertPublicHost(new URL(body.url).hostname);
        } catch (err) {
          throw validationError([{ field: "body.url", reason: `must resolve to a public address: ${err instanceof Error ? err.message : String(err)}` }]);
        }
      }
      const secret = newSecret();
      const row = await repo.create({
        userId: user.id,
        ownerAddress: user.evmAddress.toLowerCase(),
        url: body.url,
        events: [...new Set(body.events)],
        description: body.description ?? null,
        secret,
        fromJournalId: await repo.newestJournalId(),
      });
      return { id: row.id, url: row.url, events: asEvents(row.events), description: row.description, secret, createdAt: row.createdAt.toISOString() };
    },
    async list(user: UserRow) {
      return { webhooks: (await repo.listByUser(user.id)).map(endpointView) };
    },
    async deliveries(user: UserRow, id: string) {
      const row = await owned(user, id);
      const attempts = await repo.attempts(row.id, ATTEMPTS_SHOWN);
      return {
        webhook: endpointView(row),
        deliveries: attempts.map((a) => ({
          id: a.id.toString(),
          messageId: a.messageId,
          event: a.event as WebhookEvent,
          attempt: a.attempt,
          status: a.status as AttemptStatus,
          responseCode: a.responseCode,
          durationMs: a.durationMs,
          error: a.error,
          nextRetryAt: a.deliveryStatus === "pending" ? a.nextAttemptAt?.toISOString() ?? null : null,
          createdAt: a.createdAt.toISOString(),
        })),
      };
    },
    async remove(user: UserRow, id: string) {
      if (!(await repo.deleteForUser(id, user.id))) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
      return { success: true, id };
    },
    async rotateSecret(user: UserRow, id: string) {
      await owned(user, id);
      const secret = newSecret();
      const until = new Date(Date.now() + ROTATION_OVERLAP_MS);
      const row = await repo.rotateSecret(id, user.id, secret, until);
      if (!row) throw new AppError("NOT_FOUND", "Webhook endpoint not found");
      return { id, secret, previousSecretExpiresAt: until.toISOString() };
    },

    /** Outbox rows for one journal entry; idempotent (a replay adds nothing). Returns how many were new. */
    async enqueue(entry: JournalEntry, draft: WebhookDraft): Promise<number> {
      const endpoints = await repo.subscribers(draft.recipients, draft.event, entry.id);
      if (endpoints.length === 0) return 0;
      const parties = [draft.posterAddress, draft.performerAddress].filter((a): a is string => !!a);
      const ids = new Map((await deps.users.findByAddresses(parties)).map((u) => [u.evmAddress.toLowerCase(), u.id]));
      // A party without an account is named by address (as in notifications).
      const idOf = (a: string | null) => (a ? ids.get(a) ?? a : null);
      const body = JSON.stringify({
        event: draft.event,
        data: {
          missionId: missionIdOf(entry),
          performerId: idOf(draft.performerAddress),
          timestamp: new Date(Number(entry.blockTimestamp) * 1000).toISOString(),
          posterId: idOf(draft.posterAddress),
          posterAddress: draft.posterAddress,
          performerAddress: draft.performerAddress,
          ...draft.extra,
        },
      });
      const messageId = `msg_${entry.chainId}_${entry.id}`;
      return repo.enqueue(endpoints.map((e) => ({ endpointId: e.id, messageId, journalId: entry.id, event: draft.event, body })));
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
