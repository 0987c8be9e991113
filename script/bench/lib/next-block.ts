// B5 on 2-second blocks (workloads/create-to-visible.ts): when anvil's interval miner sealed each block,
// and the next block a create can make.
/**
 * When block `k` was mined, from the first-seen times of the blocks near it: anvil's interval miner
 * mines block k at offset + k * blockTime, and each first-seen time is that plus the poller's delay
 * (0..10 ms, more on a busy machine), so the least-delayed block of the neighbourhood gives the offset.
 */
export function tickTimes(seen: ReadonlyMap<bigint, number>, blockMs: number, around: bigint, span = 6n): (k: bigint) => number {
  let offset = Number.POSITIVE_INFINITY;
  for (const [k, t] of seen) if (k >= around - span && k <= around + span) offset = Math.min(offset, t - Number(k) * blockMs);
  return (k) => offset + Number(k) * blockMs;
}

/**
 * The next block a create started at `t0` (the head then `h0`) can make: the first tick at least
 * `floorMs` after it (docs/decisions.md "B5 on 2-s blocks: the next block a create can make"), and the
 * time from `t0` to that tick. `floorMs` 0 gives the literal next tick.
 */
export function nextBlockAfter(seen: ReadonlyMap<bigint, number>, blockMs: number, h0: bigint, t0: number, floorMs = 0): { next: bigint; ms: number } {
  const at = tickTimes(seen, blockMs, h0);
  let next = h0 - 1n;
  while (at(next) <= t0 + floorMs) next++;
  return { next, ms: at(next) - t0 };
}
