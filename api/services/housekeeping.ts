// Retention: every few minutes each API copy deletes what has outlived its keep (expired sign-in
// nonces and idempotency keys: 24 h; location history: 30 days; the discovery change feed; vault
// export logs: 90 days; finished pushes; relayer outbox rows: 3 days). Every job is an idempotent
// DELETE, so copies need no leader; a failed pass is retried by the next one.
import type { Logger } from "../lib/logger.ts";

export const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

export interface Housekeeping {
  /** Starts the timer (once); the first pass runs one interval after. */
  start(): void;
  stop(): Promise<void>;
  /** One pass now (every job, in parallel); resolves when all have settled. */
  pass(): Promise<void>;
}

export function housekeeping(o: { jobs: Record<string, () => Promise<unknown>>; everyMs?: number; logger: Logger }): Housekeeping {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const pass = (): Promise<void> =>
    (running ??= Promise.all(
      Object.entries(o.jobs).map(([name, job]) =>
        job().catch((err: unknown) => o.logger.debug("housekeeping job failed", { job: name, err: err instanceof Error ? err.message : String(err) }))),
    ).then(() => undefined).finally(() => (running = null)));
  return {
    start() {
      if (timer) return;
      timer = setInterval(() => void pass(), o.everyMs ?? HOUSEKEEPING_EVERY_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
    pass,
  };
}
