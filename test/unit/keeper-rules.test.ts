// The mission keeper's rule on an on-chain record (pure): what a deadline calls for, and when.
import { describe, expect, it } from "vitest";
import { missionAction } from "../../api/services/keeper/mission-deadlines.ts";

const [OPEN, ACCEPTED, SUBMITTED, COMPLETED, CANCELLED, EXPIRED, DISPUTED] = [0, 1, 2, 3, 4, 5, 6];
const m = (state: number, expiresAt = 1_000, reviewDeadline = 0) => ({ state, expiresAt, reviewDeadline });

describe("missionAction", () => {
  it("expires Open and Accepted missions from expiresAt on, not a second earlier", () => {
    expect(missionAction(m(OPEN), 999n)).toBeNull();
    expect(missionAction(m(OPEN), 1_000n)).toBe("expireMission");
    expect(missionAction(m(ACCEPTED), 1_000n)).toBe("expireMission");
  });
  it("releases a Submitted mission from its review deadline on, whatever its expiry", () => {
    expect(missionAction(m(SUBMITTED, 500, 2_000), 1_999n)).toBeNull();
    expect(missionAction(m(SUBMITTED, 500, 2_000), 2_000n)).toBe("claimAfterReview");
    expect(missionAction(m(SUBMITTED, 500, 0), 10_000n)).toBeNull();
  });
  it("leaves every other state alone (a user acted first)", () => {
    for (const s of [COMPLETED, CANCELLED, EXPIRED, DISPUTED]) expect(missionAction(m(s, 1, 1), 10_000n)).toBeNull();
  });
});
