// A constant arrival rate, open loop: request i is due at start + i / rate seconds and is started then,
// whether or not earlier ones have finished (as wrk2 and k6's constant-arrival-rate executor run). A
// closed loop (each connection waits for its answer) or a once-a-second budget (autocannon's
// `overallRate`, which fires every connection together at each second's start) hides or inflates the
// server's latency. Shared by the bench's latency passes and the reliability load.

/** Due times (ms after the start) of `rate × seconds` requests, evenly spaced. */
export function openLoopSchedule(ratePerSecond: number, seconds: number): number[] {
  if (!(ratePerSecond > 0) || !(seconds > 0)) throw new Error(`openLoopSchedule: rate and seconds must be positive (got ${ratePerSecond}, ${seconds})`);
  const n = Math.round(ratePerSecond * seconds);
  return Array.from({ length: n }, (_, i) => (i * 1000) / ratePerSecond);
}

export interface OpenLoopRun {
  /** Seconds from the first due time to the last start. */
  sentSeconds: number;
  /** Seconds from the first due time to the last completion. */
  allSeconds: number;
  /** How late each request started after its due time (ms): shows whether the generator kept the rate. */
  lags: number[];
}

/**
 * Starts `fire(i, due)` at each due time (`due` on the performance.now() clock, so a latency measured
 * from it charges any lateness to the request), then waits for every request to settle.
 */
export async function runOpenLoop(opts: { rate: number; seconds: number; fire: (i: number, due: number) => Promise<unknown> }): Promise<OpenLoopRun> {
  const schedule = openLoopSchedule(opts.rate, opts.seconds);
  const start = performance.now() + 5;
  const inflight = new Set<Promise<unknown>>();
  const lags: number[] = [];
  let i = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (i < schedule.length && start + schedule[i]! <= now) {
        const due = start + schedule[i]!;
        lags.push(now - due);
        const p = opts.fire(i++, due).catch(() => {});
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
      }
      if (i >= schedule.length) return done();
      setTimeout(tick, Math.max(0, start + schedule[i]! - performance.now()));
    };
    setTimeout(tick, Math.max(0, start - performance.now()));
  });
  const sentSeconds = (performance.now() - start) / 1000;
  await Promise.all([...inflight]);
  return { sentSeconds, allSeconds: (performance.now() - start) / 1000, lags };
}
