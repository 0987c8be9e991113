// The retry schedule (pure): exponential backoff with jitter, each wait capped at 480 × base.
// With the production base (60 s) and 12 attempts the waits are 1, 2, 4, ... 256 min, then 8 h twice:
// about 24.5 h from the first attempt to the last (±25 % jitter on each wait).

/** Milliseconds to wait after failed attempt number `attempt` (1-based); `random` in [0, 1). */
export function retryDelayMs(attempt: number, baseMs: number, random: number = Math.random()): number {
  const exp = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), baseMs * 480);
  return Math.round(exp * (0.75 + 0.5 * random));
}
