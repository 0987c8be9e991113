// B5 on 2-s blocks (script/bench/lib/next-block.ts): the next block a create can make is the
// first tick at least the run's floor after its start (docs/decisions.md "B5 on 2-s blocks: the next
// block a create can make"); the tick schedule comes from the blocks' first sightings.
import { describe, expect, it } from "vitest";
import { nextBlockAfter, tickTimes } from "../../script/bench/lib/next-block.ts";

const BLOCK_MS = 2000;
// Blocks 10..20 mined at 500 + k * 2000 ms; each first seen 1-9 ms later, block 15 with the least delay.
const seen = new Map<bigint, number>();
for (let k = 10n; k <= 20n; k++) seen.set(k, 500 + Number(k) * BLOCK_MS + (k === 15n ? 1 : 9));
const tick = (k: bigint) => 501 + Number(k) * BLOCK_MS;

describe("B5's next block", () => {
  it("takes the tick schedule from the least-delayed sighting nearby", () => {
    expect(tickTimes(seen, BLOCK_MS, 15n)(16n)).toBe(tick(16n));
  });

  it("is the next tick for a create started earlier than the floor before it", () => {
    const t0 = tick(16n) - 10;
    expect(nextBlockAfter(seen, BLOCK_MS, 15n, t0, 2.7)).toEqual({ next: 16n, ms: 10 });
  });

  it("is the tick after for a create started within the floor of a tick (no client makes that block)", () => {
    const t0 = tick(16n) - 0.25;
    expect(nextBlockAfter(seen, BLOCK_MS, 15n, t0)).toEqual({ next: 16n, ms: 0.25 });
    expect(nextBlockAfter(seen, BLOCK_MS, 15n, t0, 2.7)).toEqual({ next: 17n, ms: BLOCK_MS + 0.25 });
  });

  it("never names a block already mined at the start", () => {
    expect(nextBlockAfter(seen, BLOCK_MS, 15n, tick(16n) + 5, 2.7).next).toBe(17n);
  });
});
