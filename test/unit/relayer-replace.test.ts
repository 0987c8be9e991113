import { parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import { bumped, holdsTheLine, replacementFees } from "../../api/services/relayer/replace.ts";

const g = parseGwei;
describe("replacement fees", () => {
  it("bumps both fees by at least 12.5 % (rounded up)", () => {
    expect(bumped(8n)).toBe(9n);
    expect(bumped(9n)).toBe(11n);
    const f = replacementFees({ maxFeePerGas: g("2"), maxPriorityFeePerGas: g("1") }, { maxFeePerGas: g("1.5"), maxPriorityFeePerGas: g("0.5") }, null);
    expect(f).toEqual({ maxFeePerGas: g("2.25"), maxPriorityFeePerGas: g("1.125") });
  });
  it("takes the current estimate when it is higher", () => {
    const f = replacementFees({ maxFeePerGas: g("2"), maxPriorityFeePerGas: g("1") }, { maxFeePerGas: g("7"), maxPriorityFeePerGas: g("2") }, null);
    expect(f).toEqual({ maxFeePerGas: g("7"), maxPriorityFeePerGas: g("2") });
  });
  it("clips to the cap, and sends nothing when the cap leaves no full bump", () => {
    const prev = { maxFeePerGas: g("6"), maxPriorityFeePerGas: g("1") };
    expect(replacementFees(prev, { maxFeePerGas: g("12"), maxPriorityFeePerGas: g("1") }, g("8"))).toEqual({ maxFeePerGas: g("8"), maxPriorityFeePerGas: g("1.125") });
    expect(replacementFees({ ...prev, maxFeePerGas: g("8") }, { maxFeePerGas: g("12"), maxPriorityFeePerGas: g("1") }, g("8"))).toBeNull();
    expect(replacementFees({ maxFeePerGas: g("7.2"), maxPriorityFeePerGas: g("7.2") }, { maxFeePerGas: g("1"), maxPriorityFeePerGas: g("1") }, g("8"))).toBeNull();
  });
  it("without a cap, never above twice the current estimate: bumps stop instead of running away", () => {
    const est = { maxFeePerGas: g("1"), maxPriorityFeePerGas: g("0.1") };
    let prev: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | null = { maxFeePerGas: g("1"), maxPriorityFeePerGas: g("0.1") };
    const seen: bigint[] = [];
    for (let i = 0; i < 100 && prev; i++) {
      prev = replacementFees(prev, est, null);
      if (prev) seen.push(prev.maxFeePerGas);
    }
    expect(seen.length).toBe(5); // 1.125, 1.27, 1.42, 1.60, 1.80 gwei; 2.03 is above 2 x 1 gwei
    expect(seen.every((f) => f <= 2n * est.maxFeePerGas)).toBe(true);
  });
  it("never asks more than the key can pay (balance / gas), even under a cap", () => {
    const prev = { maxFeePerGas: g("10"), maxPriorityFeePerGas: g("1") };
    const est = { maxFeePerGas: g("20"), maxPriorityFeePerGas: g("1") };
    expect(replacementFees(prev, est, g("100"), g("15"))).toEqual({ maxFeePerGas: g("15"), maxPriorityFeePerGas: g("1.125") });
    expect(replacementFees(prev, est, null, g("11"))).toBeNull(); // 11 < 11.25: no full bump fits
  });
  it("only the oldest unmined nonce, or a broadcast below the base fee, holds the line", () => {
    expect(holdsTheLine(7n, 7n, g("2"), g("1"))).toBe(true); // the head
    expect(holdsTheLine(8n, 7n, g("2"), g("1"))).toBe(false); // behind the head, priced to be mined: waits
    expect(holdsTheLine(8n, 7n, g("0.9"), g("1"))).toBe(true); // behind the head but below the base fee
  });
});
