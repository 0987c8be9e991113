import { describe, expect, it } from "vitest";
import { eligibility, eligibilityUser, isEligible, type EligibilityMission } from "../../domain/index.ts";

const open: EligibilityMission = { guild: null, minGuildXp: null, minReputation: null, premium: false };
const user = (guilds: Record<string, number> = {}, reputation = 0, level = 1) => eligibilityUser(new Map(Object.entries(guilds)), reputation, level);
const fields = (u: ReturnType<typeof user>, m: EligibilityMission) => eligibility(u, m).reasons.map((r) => r.field);

describe("eligibility (one rule for the feed, the map and accept)", () => {
  it("lets anyone take a mission outside guilds with no requirement", () => {
    expect(eligibility(user(), open)).toEqual({ eligible: true, reasons: [] });
  });
  it("guild: only active members take a guild mission", () => {
    expect(fields(user(), { ...open, guild: "g1" })).toEqual(["guild"]);
    expect(fields(user({ g2: 500 }), { ...open, guild: "g1" })).toEqual(["guild"]);
    expect(isEligible(user({ g1: 0 }), { ...open, guild: "g1" })).toBe(true);
  });
  it("minGuildXP: below the board entry's minimum is refused, at it is allowed; a non-member fails guild only", () => {
    const m = { ...open, guild: "g1", minGuildXp: 100 };
    expect(fields(user({ g1: 99 }), m)).toEqual(["minGuildXP"]);
    expect(isEligible(user({ g1: 100 }), m)).toBe(true);
    expect(fields(user({}), m)).toEqual(["guild"]);
  });
  it("minReputation: below is refused, at it is allowed, a negative reputation is below 0", () => {
    const m = { ...open, minReputation: 5 };
    expect(fields(user({}, 4), m)).toEqual(["minReputation"]);
    expect(isEligible(user({}, 5), m)).toBe(true);
    expect(fields(user({}, -3), { ...open, minReputation: 0 })).toEqual(["minReputation"]);
    expect(isEligible(user({}, 0), { ...open, minReputation: 0 })).toBe(true);
  });
  it("level: a premium mission needs the premium_missions unlock (level 6)", () => {
    const m = { ...open, premium: true };
    expect(fields(user({}, 0, 5), m)).toEqual(["level"]);
    expect(isEligible(user({}, 0, 6), m)).toBe(true);
    expect(isEligible(user({}, 0, 1), open)).toBe(true);
  });
  it("names every rule failed, in a fixed order, each with a reason", () => {
    const r = eligibility(user({ g1: 1 }, -5, 2), { guild: "g1", minGuildXp: 10, minReputation: 1, premium: true });
    expect(r.eligible).toBe(false);
    expect(r.reasons.map((x) => x.field)).toEqual(["minGuildXP", "minReputation", "level"]);
    for (const x of r.reasons) expect(x.reason.length).toBeGreaterThan(10);
  });
  it("works with any guild key (the feed index uses interned numbers)", () => {
    const u = eligibilityUser(new Map([[3, 50]]), 0, 1);
    expect(isEligible(u, { guild: 3, minGuildXp: 50, minReputation: null, premium: false })).toBe(true);
    expect(isEligible(u, { guild: 4, minGuildXp: null, minReputation: null, premium: false })).toBe(false);
  });
  it("isEligible (the feed's per-mission check, no reasons built) agrees with eligibility() on every combination", () => {
    let n = 0;
    for (const guild of [null, "g1"]) for (const minGuildXp of [null, 0, 50]) for (const minReputation of [null, -1, 0, 5]) for (const premium of [false, true])
      for (const guilds of [{}, { g1: 10 }, { g1: 50 }, { g2: 99 }] as Record<string, number>[]) for (const reputation of [-3, 0, 5]) for (const level of [1, 5, 6, 20]) {
        const u = user(guilds, reputation, level);
        const m = { guild, minGuildXp, minReputation, premium };
        const full = eligibility(u, m);
        expect(isEligible(u, m)).toBe(full.eligible);
        expect(full.eligible).toBe(full.reasons.length === 0);
        n++;
      }
    expect(n).toBe(2 * 3 * 4 * 2 * 4 * 3 * 4);
  });
});
