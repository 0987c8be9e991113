import { parseGwei } from "viem";
import { describe, expect, it } from "vitest";
import { bumped, replacementFees } from "../../api/services/relayer/replace.ts";

const g = parseGwei;
describe("replacement fees", () => {
  it("bumps both fees by at least 12.5 % (rounded up)", () => {
    expect(bumped(8n)).toBe(9n);
    expect(bumped(9n)).toBe(11n);
    const f = replacementFees({ maxFeePerGas: g("2"), maxPriorityFeePerGas: g("1") }, { maxFeePerGas: g("1"), maxPriorityFeePerGas: g("0.5") }, null);
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
});
