// The pure rules of partial payments and settlements (domain/settlement.ts).
import { describe, expect, it } from "vitest";
import {
  remainingOf,
  RESOLVER_DECISION_FEE,
  resolverPay,
  resolverPayStatus,
  settlementBlocked,
  settlementSplitPercentage,
} from "../../domain/index.ts";

describe("remainingOf", () => {
  it("is reward − released − refunded while the escrow holds the mission, 0 once it ended", () => {
    const m = { reward: 10_000_000n, released: 3_000_000n, refunded: 1_500_000n };
    for (const state of ["Open", "Accepted", "Submitted", "Disputed"] as const) expect(remainingOf({ ...m, state })).toBe(5_500_000n);
    for (const state of ["Completed", "Cancelled", "Expired"] as const) expect(remainingOf({ ...m, state })).toBe(0n);
    expect(remainingOf({ reward: 1n, released: 1n, refunded: 0n, state: "Accepted" })).toBe(0n);
  });
});

describe("settlementBlocked", () => {
  it("allows Submitted, and Disputed while the dispute is Pending or Investigating", () => {
    expect(settlementBlocked("Submitted", null)).toBeNull();
    expect(settlementBlocked("Disputed", "Pending")).toBeNull();
    expect(settlementBlocked("Disputed", "Investigating")).toBeNull();
  });
  it("refuses every other state, with the reason", () => {
    for (const s of ["Open", "Accepted", "Completed", "Cancelled", "Expired"] as const) expect(settlementBlocked(s, null)).toMatch(s);
    for (const d of ["Resolved", "Appealed", "Finalized"] as const) expect(settlementBlocked("Disputed", d)).toMatch(d);
  });
});

describe("settlementSplitPercentage", () => {
  it("rounds performerAmount × 100 / remainder half up, within 0..100", () => {
    expect(settlementSplitPercentage(0n, 123_456_789n)).toBe(0);
    expect(settlementSplitPercentage(123_456_789n, 123_456_789n)).toBe(100);
    expect(settlementSplitPercentage(50n, 100n)).toBe(50);
    expect(settlementSplitPercentage(1_005n, 2_000n)).toBe(50); // 50.25
    expect(settlementSplitPercentage(1_010n, 2_000n)).toBe(51); // 50.5 rounds up
    expect(settlementSplitPercentage(1n, 1_000n)).toBe(0); // 0.1
    expect(settlementSplitPercentage(5n, 1_000n)).toBe(1); // 0.5
    expect(settlementSplitPercentage(994n, 1_000n)).toBe(99); // 99.4
    expect(settlementSplitPercentage(995n, 1_000n)).toBe(100); // 99.5
    expect(settlementSplitPercentage(1n, 0n)).toBe(0);
  });
  it("agrees with the exact fraction to within half a percent for random amounts", () => {
    for (let i = 0; i < 2_000; i++) {
      const remainder = BigInt(1 + Math.floor(Math.random() * 1e12));
      const part = (remainder * BigInt(Math.floor(Math.random() * 1_000_001))) / 1_000_000n;
      const pct = settlementSplitPercentage(part, remainder);
      const exact = (Number(part) * 100) / Number(remainder);
      expect(Math.abs(pct - exact)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });
});

describe("resolver pay", () => {
  it("is the fee, what the pool holds when less, 0 when empty", () => {
    expect(resolverPay(0n)).toBe(0n);
    expect(resolverPay(1n)).toBe(1n);
    expect(resolverPay(RESOLVER_DECISION_FEE)).toBe(RESOLVER_DECISION_FEE);
    expect(resolverPay(RESOLVER_DECISION_FEE * 3n)).toBe(RESOLVER_DECISION_FEE);
  });
  it("reports how it went", () => {
    expect(resolverPayStatus(false, 0n)).toBe("not_due");
    expect(resolverPayStatus(true, 0n)).toBe("pool_empty");
    expect(resolverPayStatus(true, 1n)).toBe("partial");
    expect(resolverPayStatus(true, RESOLVER_DECISION_FEE)).toBe("paid");
  });
});
