import { describe, expect, it } from "vitest";
import { expiryFor } from "../../api/services/missions.service.ts";

describe("expiryFor", () => {
  const nowMs = 1_800_000_000_000; // wall clock 1,800,000,000 s

  it("counts expiresIn from the wall clock when the chain head is older (an idle anvil)", () => {
    expect(expiryFor(1_799_999_000n, 3600, nowMs)).toBe(1_800_003_600n);
  });

  it("counts from the chain head when it runs ahead of this host", () => {
    expect(expiryFor(1_800_000_100n, 3600, nowMs)).toBe(1_800_003_700n);
  });

  it("moves a deadline near the escrow's 60 s minimum out by the inclusion allowance", () => {
    expect(expiryFor(1_799_999_000n, 60, nowMs)).toBe(1_800_000_075n);
    expect(expiryFor(1_799_999_000n, 75, nowMs)).toBe(1_800_000_075n);
    expect(expiryFor(1_799_999_000n, 76, nowMs)).toBe(1_800_000_076n);
  });

  it("rounds a fractional wall clock up, never down", () => {
    expect(expiryFor(0n, 3600, nowMs + 1)).toBe(1_800_003_601n);
  });
});
