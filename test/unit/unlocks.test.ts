import { describe, expect, it } from "vitest";
import { hasUnlock, levelRequiredFor, LEVEL_UNLOCKS, unlocksAt } from "../../domain/index.ts";
import { LEVEL_THRESHOLDS, levelForXp } from "../../domain/levels.ts";

describe("level unlocks (the spec's phase table)", () => {
  it("gives exactly the phase table's unlocks at each phase's first level", () => {
    expect(unlocksAt(1)).toEqual(["posting", "guild_joining"]);
    expect(unlocksAt(5)).toEqual(["posting", "guild_joining"]);
    expect(unlocksAt(6)).toEqual(["posting", "guild_joining", "premium_missions", "guild_creation"]);
    expect(unlocksAt(11)).toEqual(["posting", "guild_joining", "premium_missions", "guild_creation", "curation", "resolving"]);
    expect(unlocksAt(16)).toContain("governance");
    expect(unlocksAt(15)).not.toContain("governance");
    expect(unlocksAt(21)).toEqual(LEVEL_UNLOCKS.map((u) => u.unlock));
    expect(unlocksAt(20)).not.toContain("legend");
  });
  it("agrees with the XP thresholds of the phase table (625, 3,275, 11,000, 30,000 XP)", () => {
    expect(hasUnlock(levelForXp(624), "premium_missions")).toBe(false);
    expect(hasUnlock(levelForXp(625), "premium_missions")).toBe(true);
    expect(hasUnlock(levelForXp(3274), "resolving")).toBe(false);
    expect(hasUnlock(levelForXp(3275), "curation")).toBe(true);
    expect(hasUnlock(levelForXp(10_999), "governance")).toBe(false);
    expect(hasUnlock(levelForXp(11_000), "governance")).toBe(true);
    expect(LEVEL_THRESHOLDS[levelRequiredFor("legend") - 1]).toBe(30_000);
  });
});
