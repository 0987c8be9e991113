// Sends the Web Push outbox outside the journal reactors: every API copy runs one (the webhooks'
// loop, api/services/outbox-pump.ts). The claim takes each user's oldest pending push only, so a
// user's silent endpoints hold one slot for one timeout at a time and never anyone else's events.
// A push is tried once: a failure is recorded, not retried (push services hold messages for offline
// devices themselves); a second attempt happens only when a copy died holding the lease.
import type { Logger } from "../lib/logger.ts";
import type { ClaimedPush, PushRepository } from "../repositories/push.repository.ts";
import { outboxPump, type OutboxPump } from "./outbox-pump.ts";
import type { PushDelivery } from "./push-delivery.ts";

export interface PushDispatcherOptions {
  concurrency: number;
  /** One send's time limit (the lease outlives it). */
  timeoutMs: number;
  pollMs: number;
}

/** Claims of one row at most: a row whose sender died this often is given up. */
export const PUSH_MAX_ATTEMPTS = 3;

/** Builds the dispatcher; nothing is sent until start(). */
export function pushDispatcher(deps: {
  repo: Pick<PushRepository, "claim" | "nextDueMs" | "finish" | "dropDevice" | "listen">;
  push: PushDelivery;
  logger: Logger;
  options: PushDispatcherOptions;
  /** Wake-ups from the database; false: poll only (unit tests). */
  listen?: boolean;
}): OutboxPump {
  const { repo, push, options: o } = deps;
  const logger = deps.logger.child({ component: "push" });
  const leaseMs = o.timeoutMs + 20_000;

  async function deliver(p: ClaimedPush) {
    if (p.attempt > PUSH_MAX_ATTEMPTS) {
      await repo.finish(p.id, p.attempt, "failed", `given up after ${PUSH_MAX_ATTEMPTS} claims`);
      return;
    }
    const result = await push.deliver(p.device, p.notification);
    if (result === "gone") return repo.dropDevice(p.device.id);
    await repo.finish(p.id, p.attempt, result === "sent" ? "sent" : "failed", result === "sent" ? null : result);
  }

  return outboxPump({
    name: "push",
    claim: (limit) => repo.claim(limit, leaseMs),
    nextDueMs: () => repo.nextDueMs(),
    deliver,
    listen: deps.listen === false ? undefined : (onNotify, onLost) => repo.listen(onNotify, onLost),
    concurrency: o.concurrency,
    pollMs: o.pollMs,
    logger,
  });
}
