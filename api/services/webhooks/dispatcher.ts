// Sends the outbox: every API copy runs one. Claims are leased rows (api/repositories/webhooks.repository.ts),
// so copies never send the same delivery at once, and each endpoint has at most one delivery in flight
// (its oldest), which keeps chain order per endpoint and lets a slow endpoint hold only its own slot.
// When it runs: on a wake-up from PostgreSQL (a new delivery or a retry's new time, migration 0022's
// NOTIFY), when one of its sends finishes, and at the next due time it reads after each round (a
// retry, or another copy's lease running out); `pollMs` only bounds that sleep. An idle outbox
// costs no queries: the 500-ms poll this replaces was 2 queries a second per copy, forever.
import type { Listening } from "../../db/listen.ts";
import type { Logger } from "../../lib/logger.ts";
import type { ClaimedDelivery, WebhooksRepository } from "../../repositories/webhooks.repository.ts";
import { retryDelayMs } from "./retry.ts";
import { sendWebhook, type SendOptions } from "./sender.ts";

export interface DispatcherOptions extends SendOptions {
  concurrency: number;
  /** The longest sleep between two looks at the outbox (a safety net: wake-ups and due times come first). */
  pollMs: number;
  retryBaseMs: number;
  maxAttempts: number;
}

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

/** A head found due right after a round that had room for it: only a commit racing the round; look again soon. */
const MIN_WAIT_MS = 50;
const RELISTEN_MS = 1_000;

export function startWebhookDispatcher(deps: {
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
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | null = null;

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

  // One round at a time; a wake-up during a round runs one more (its commit may have missed the claim).
  let again = false;
  function pump(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      for (;;) {
        let full: boolean;
        do {
          again = false;
          full = await claimAndSend();
        } while (again && !stopped);
        // Every slot busy: a finishing send starts the next round. Otherwise sleep until the next due time.
        if (full) return wakeIn(o.pollMs);
        const due = await repo.nextDueMs().catch((err) => {
          logger.warn("webhook outbox read failed", { err: err instanceof Error ? err.message : String(err) });
          return null;
        });
        if (again && !stopped) continue; // a send finished or a wake-up came while reading
        return wakeIn(due === null ? o.pollMs : Math.min(o.pollMs, Math.max(MIN_WAIT_MS, due)));
      }
    })().finally(() => (pumping = null));
    return pumping;
  }

  /** Claims what is due into the free slots; true when every slot is taken afterwards. */
  async function claimAndSend(): Promise<boolean> {
    try {
      const free = o.concurrency - inFlight.size;
      if (free <= 0) return true;
      for (const d of await repo.claim(free, leaseMs)) {
        const p: Promise<void> = deliver(d)
          .catch((err) => logger.warn("webhook delivery failed to record", { id: d.id, err: err instanceof Error ? err.message : String(err) }))
          .finally(() => {
            inFlight.delete(p);
            void pump();
          });
        inFlight.add(p);
      }
    } catch (err) {
      logger.warn("webhook claim failed", { err: err instanceof Error ? err.message : String(err) });
    }
    return inFlight.size >= o.concurrency;
  }

  function wakeIn(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pump(), ms);
  }

  // The wake-up connection, replaced when lost; each (re)start looks at the outbox (what committed meanwhile).
  let listening: Listening | null = null;
  let relisten: NodeJS.Timeout | undefined;
  async function subscribe() {
    if (stopped || !deps.listen) return;
    try {
      const l = await deps.listen(() => void pump(), () => {
        listening = null;
        if (!stopped) relisten = setTimeout(() => void subscribe(), RELISTEN_MS);
      });
      if (stopped) return l.close();
      listening = l;
    } catch (err) {
      logger.warn("webhook wake-up listen failed", { err: err instanceof Error ? err.message : String(err) });
      if (!stopped) relisten = setTimeout(() => void subscribe(), RELISTEN_MS);
    }
    void pump();
  }
  if (deps.listen) void subscribe();
  else void pump();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(relisten);
      listening?.close();
      // A claim under way still hands its rows to deliveries: wait for it, then for every send.
      await pumping?.catch(() => {});
      await Promise.allSettled([...inFlight]);
    },
  };
}
