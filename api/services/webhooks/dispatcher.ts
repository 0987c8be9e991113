// Sends the webhook outbox: every API copy runs one (the loop is api/services/outbox-pump.ts). Claims
// are leased rows (api/repositories/webhooks.repository.ts), so copies never send the same delivery at
// once, and each endpoint has at most one delivery in flight (its oldest), which keeps chain order per
// endpoint and lets a slow endpoint hold only its own slot. Woken by PostgreSQL on a new delivery or
// a retry's new time (migration 0022's NOTIFY).
import type { Listening } from "../../db/listen.ts";
import type { Logger } from "../../lib/logger.ts";
import type { ClaimedDelivery, WebhooksRepository } from "../../repositories/webhooks.repository.ts";
import { outboxPump, type OutboxPump } from "../outbox-pump.ts";
import { retryDelayMs } from "./retry.ts";
import { sendWebhook, type SendOptions } from "./sender.ts";

export interface DispatcherOptions extends SendOptions {
  concurrency: number;
  /** The longest sleep between two looks at the outbox (a safety net: wake-ups and due times come first). */
  pollMs: number;
  retryBaseMs: number;
  maxAttempts: number;
}

export type WebhookDispatcher = OutboxPump;

/** Builds the dispatcher; nothing is sent until start(). */
export function webhookDispatcher(deps: {
  repo: Pick<WebhooksRepository, "claim" | "finish" | "disable" | "nextDueMs">;
  /** Wake-ups from the database (WebhooksRepository.listen); without it the dispatcher polls every `pollMs`. */
  listen?: (onNotify: () => void, onLost: (err?: unknown) => void) => Promise<Listening>;
  logger: Logger;
  options: DispatcherOptions;
  /** Tells the owner their endpoint was disabled. */
  onDisabled: (endpoint: { userId: string; ownerAddress: string; url: string; disabledAt: Date }, endpointId: string) => Promise<void>;
}): WebhookDispatcher {
  const { repo, options: o } = deps;
  const logger = deps.logger.child({ component: "webhooks" });
  // The lease outlives the send (timeout + margin) so a live copy never loses a delivery to another.
  const leaseMs = o.timeoutMs + 20_000;

  async function deliver(d: ClaimedDelivery) {
    const result = await sendWebhook(d.url, d.messageId, d.body, d.secrets, o);
    const outcome = result.ok
      ? ({ status: "succeeded" } as const)
      : d.attempt >= o.maxAttempts
        ? ({ status: "gave_up" } as const)
        : ({ status: "failed", nextAttemptAt: new Date(Date.now() + retryDelayMs(d.attempt, o.retryBaseMs)) } as const);
    const recorded = await repo.finish(d, outcome, result);
    if (!result.ok) logger.info("webhook attempt failed", { endpointId: d.endpointId, messageId: d.messageId, attempt: d.attempt, error: result.error });
    if (recorded && outcome.status === "gave_up") {
      const disabled = await repo.disable(d.endpointId, `${o.maxAttempts} attempts of ${d.messageId} failed (last: ${result.error})`);
      if (disabled) {
        logger.warn("webhook endpoint disabled", { endpointId: d.endpointId, messageId: d.messageId });
        await deps.onDisabled(disabled, d.endpointId);
      }
    }
  }

  return outboxPump({
    name: "webhook",
    claim: (limit) => repo.claim(limit, leaseMs),
    nextDueMs: () => repo.nextDueMs(),
    deliver,
    listen: deps.listen,
    concurrency: o.concurrency,
    pollMs: o.pollMs,
    logger,
  });
}
