import { describe, expect, it } from "vitest";
import {
  categoryPreferences, combine, distanceScore, posterReputationScore, rewardScore, sortFeed, urgencyScore, xpMatchScore,
} from "../../api/services/discovery/feed-scoring.ts";

const base = {
  eligibility: true, rewardScore: 0, urgencyScore: 0, distanceScore: 0, xpMatchScore: 0, guildBoost: 1,
  posterReputationScore: 0, categoryPreferenceScore: 0,
};

describe("factors (each 0..1)", () => {
  it("reward: logarithmic, 1000 USDC saturates", () => {
    expect(rewardScore(0n)).toBe(0);
    expect(rewardScore(1_000_000_000n)).toBe(1);
    expect(rewardScore(10_000_000_000n)).toBe(1);
    expect(rewardScore(9_000_000n)).toBeCloseTo(1 / 3, 3); // log10(10)/log10(1001)
    expect(rewardScore(100_000_000n)).toBeGreaterThan(rewardScore(10_000_000n));
  });
  it("urgency: now = 1, a week away = 0", () => {
    expect(urgencyScore(1000, 1000)).toBe(1);
    expect(urgencyScore(1000 + 84 * 3600, 1000)).toBeCloseTo(0.5, 6);
    expect(urgencyScore(1000 + 30 * 86400, 1000)).toBe(0);
  });
  it("distance: 0 m = 1, 25 km = 0.5, >= 50 km = 0, unknown = 0.5", () => {
    expect(distanceScore(0)).toBe(1);
    expect(distanceScore(25_000)).toBe(0.5);
    expect(distanceScore(80_000)).toBe(0);
    expect(distanceScore(null)).toBe(0.5);
  });
  it("xp match: newcomers match small missions, veterans big ones", () => {
    expect(xpMatchScore(0, 0)).toBe(1);
    expect(xpMatchScore(0, 1)).toBe(0);
    expect(xpMatchScore(3275, 1)).toBe(1);
    expect(xpMatchScore(10_000, 0.5)).toBe(0.5);
  });
  it("poster reputation: average rating mapped 1..5 -> 0..1, unknown 0.5", () => {
    expect(posterReputationScore(0, 0)).toBe(0.5);
    expect(posterReputationScore(10, 2)).toBe(1);
    expect(posterReputationScore(3, 3)).toBe(0);
    expect(posterReputationScore(7, 2)).toBe(0.625);
  });
  it("category preference rises with engagement and is relative to the top category", () => {
    const none = categoryPreferences({ completed: {}, ratedWell: {}, views: {}, searches: {} });
    expect(none.size).toBe(0);
    const p = categoryPreferences({
      completed: { Delivery: 2 }, ratedWell: { delivery: 1 }, views: { cleaning: { count: 2, dwellMs: 120_000 } }, searches: { cleaning: 1 },
    });
    expect(p.get("delivery")).toBe(1); // 2x3 + 1x2 = 8
    expect(p.get("cleaning")).toBeCloseTo(5 / 8, 6); // 2 views + 2 min + 1 search
    const more = categoryPreferences({
      completed: { Delivery: 2 }, ratedWell: { delivery: 1 }, views: { cleaning: { count: 3, dwellMs: 180_000 } }, searches: { cleaning: 1 },
    });
    expect(more.get("cleaning")!).toBeGreaterThan(p.get("cleaning")!);
  });
});

describe("combined score", () => {
  it("weights 25/20/20/15/10/10", () => {
    expect(combine({ ...base, rewardScore: 1 }).finalScore).toBe(0.25);
    expect(combine({ ...base, urgencyScore: 1 }).finalScore).toBe(0.2);
    expect(combine({ ...base, distanceScore: 1 }).finalScore).toBe(0.2);
    expect(combine({ ...base, xpMatchScore: 1 }).finalScore).toBe(0.15);
    expect(combine({ ...base, posterReputationScore: 1 }).finalScore).toBe(0.1);
    expect(combine({ ...base, categoryPreferenceScore: 1 }).finalScore).toBe(0.1);
    const all = { ...base, rewardScore: 1, urgencyScore: 1, distanceScore: 1, xpMatchScore: 1, posterReputationScore: 1, categoryPreferenceScore: 1 };
    expect(combine(all).finalScore).toBe(1);
  });
  it("guild multiplier 1.5", () => {
    expect(combine({ ...base, rewardScore: 1, urgencyScore: 1, guildBoost: 1.5 }).finalScore).toBe(0.675);
  });
  it("ineligible missions rank after eligible ones whatever their score; sortBy keys", () => {
    const item = (id: string, finalScore: number, eligibility = true, reward = 1n, distance: number | null = 0, expiresAt = 0) => ({
      id, reward, distance, expiresAt, factors: { ...combine(base), finalScore, eligibility },
    });
    const items = [item("a", 0.9, false, 9n, 1, 1), item("b", 0.5, true, 5n, 3, 9), item("c", 0.7, true, 1n, null, 5)];
    expect(sortFeed(items, "relevance").map((x) => x.id)).toEqual(["c", "b", "a"]);
    expect(sortFeed(items, "reward").map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(sortFeed(items, "distance").map((x) => x.id)).toEqual(["b", "c", "a"]);
    expect(sortFeed(items, "urgency").map((x) => x.id)).toEqual(["c", "b", "a"]);
  });
});
