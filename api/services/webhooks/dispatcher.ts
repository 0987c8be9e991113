// Sends the outbox: every API copy runs one. Claims are leased rows (api/repositories/webhooks.repository.ts),
// so copies never send the same delivery at once, and each endpoint has at most one delivery in flight
// (its oldest), which keeps chain order per endpoint and lets a slow endpoint hold only its own slot.
import type { Logger } from "../../lib/logger.ts";
import type { ClaimedDelivery, WebhooksRepository } from "../../repositories/webhooks.repository.ts";
import { retryDelayMs } from "./retry.ts";
import { sendWebhook, type SendOptions } from "./sender.ts";

export interface DispatcherOptions extends SendOptions {
  concurrency: number;
  pollMs: number;
  retryBaseMs: number;
  maxAttempts: number;
}

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

export function startWebhookDispatcher(deps: {
  repo: Pick<WebhooksRepository, "claim" | "finish" | "disable">;
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

  function pump(): Promise<void> {
    if (pumping || stopped) return pumping ?? Promise.resolve();
    pumping = claimAndSend().finally(() => (pumping = null));
    return pumping;
  }

  async function claimAndSend() {
    try {
      const free = o.concurrency - inFlight.size;
      if (free <= 0) return;
      for (const d of await repo.claim(free, leaseMs)) {
        const p: Promise<void> = deliver(d)
          .catch((err) => logger.warn("webhook delivery failed to record", { id: d.id, err: err instanceof Error ? err.message : String(err) }))
          .finally(() => {
            inFlight.delete(p);
            kick(0);
          });
        inFlight.add(p);
      }
    } catch (err) {
      logger.warn("webhook claim failed", { err: err instanceof Error ? err.message : String(err) });
    }
  }

  function kick(ms: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void pump().finally(() => kick(o.pollMs)), ms);
  }
  kick(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      // A claim under way still hands its rows to deliveries: wait for it, then for every send.
      await pumping?.catch(() => {});
      await Promise.allSettled([...inFlight]);
    },
  };
}
