import { describe, expect, it } from "vitest";
import { mapRevert } from "../../api/services/chain-errors.ts";

const state = (s: number) => ({ name: "MissionEscrow_InvalidState", args: [1n, s] });

describe("mapRevert", () => {
  it("accept on a taken mission is ALREADY_ACCEPTED, on a closed one MISSION_NOT_OPEN", () => {
    expect(mapRevert("acceptMission", state(1)).code).toBe("ALREADY_ACCEPTED");
    expect(mapRevert("acceptMission", state(2)).code).toBe("ALREADY_ACCEPTED");
    expect(mapRevert("acceptMission", state(4)).code).toBe("MISSION_NOT_OPEN");
    expect(mapRevert("acceptMission", state(5)).code).toBe("MISSION_NOT_OPEN");
    expect(mapRevert("acceptMission", { name: "MissionEscrow_Expired", args: [1n, 0n] }).code).toBe("MISSION_NOT_OPEN");
  });
  it("cancel and updateDetails outside Open are MISSION_NOT_OPEN; other actions INVALID_STATE", () => {
    expect(mapRevert("cancelMission", state(1)).code).toBe("MISSION_NOT_OPEN");
    expect(mapRevert("updateDetails", state(2)).code).toBe("MISSION_NOT_OPEN");
    expect(mapRevert("submitProof", state(0)).code).toBe("INVALID_STATE");
  });
  it.each([
    ["MissionEscrow_NotPoster", "NOT_POSTER", 403],
    ["MissionEscrow_NotPerformer", "NOT_PERFORMER", 403],
    ["MissionEscrow_NotParty", "FORBIDDEN", 403],
    ["MissionEscrow_PosterCannotPerform", "INELIGIBLE", 403],
    ["MissionEscrow_MissionNotFound", "MISSION_NOT_FOUND", 404],
    ["MissionEscrow_TermsChanged", "TERMS_CHANGED", 409],
    ["MissionEscrow_RewardTooSmall", "VALIDATION_ERROR", 400],
    ["MissionEscrow_InvalidExpiry", "VALIDATION_ERROR", 400],
    ["Unauthorized", "FORBIDDEN", 403],
    ["ERC20InsufficientBalance", "INSUFFICIENT_BALANCE", 422],
    ["ERC20InsufficientAllowance", "INSUFFICIENT_BALANCE", 422],
    ["SomethingNew", "INTERNAL_ERROR", 500],
  ])("%s -> %s", (name, code, status) => {
    const e = mapRevert("approveMission", { name, args: [] });
    expect(e.code).toBe(code);
    expect(e.status).toBe(status);
  });
});
