import { describe, expect, it } from "vitest";
import {
  applyBps,
  builderLevel,
  completionAward,
  missionCompleteXp,
  nextStreak,
  reputationDelta,
  reserveFor,
  STREAK_RESET_SECONDS,
  streakBps,
  withBuilder,
} from "../../domain/xp.ts";

const usdc = (n: number) => BigInt(n) * 1_000_000n;

describe("missionCompleteXp", () => {
  it("is 10 + 4*floor(log2(1 + whole units)), clamped to 10..50", () => {
    expect(missionCompleteXp(0n)).toBe(10);
    expect(missionCompleteXp(999_999n)).toBe(10);
    expect(missionCompleteXp(usdc(1))).toBe(14);
    expect(missionCompleteXp(usdc(3))).toBe(18);
    expect(missionCompleteXp(usdc(10))).toBe(22);
    expect(missionCompleteXp(usdc(50))).toBe(30);
    expect(missionCompleteXp(usdc(100))).toBe(34);
    expect(missionCompleteXp(usdc(1022))).toBe(46);
    expect(missionCompleteXp(usdc(1023))).toBe(50);
    expect(missionCompleteXp(2n ** 64n)).toBe(50);
  });
  it("never decreases with the reward", () => {
    let prev = 0;
    for (let r = 0; r < 3000; r += 7) {
      const xp = missionCompleteXp(usdc(r));
      expect(xp).toBeGreaterThanOrEqual(prev);
      prev = xp;
    }
  });
});

describe("builder multiplier", () => {
  it("follows the spec's table and gives 1.0 without a score", () => {
    expect(builderLevel(null)).toEqual({ level: null, bps: 10_000n });
    expect(builderLevel(0)).toEqual({ level: "novice", bps: 10_000n });
    expect(builderLevel(24).level).toBe("novice");
    expect(builderLevel(25)).toEqual({ level: "apprentice", bps: 10_500n });
    expect(builderLevel(50)).toEqual({ level: "practitioner", bps: 11_000n });
    expect(builderLevel(75)).toEqual({ level: "advanced", bps: 12_000n });
    expect(builderLevel(90)).toEqual({ level: "expert", bps: 13_500n });
    expect(builderLevel(99).level).toBe("expert");
    expect(builderLevel(100)).toEqual({ level: "master", bps: 15_000n });
  });
  it("turns 50 XP into 75 for a Master (the spec's example) and rounds half up", () => {
    expect(withBuilder(50, 15_000n)).toBe(75);
    expect(withBuilder(10, 10_500n)).toBe(11); // 10.5
    expect(withBuilder(14, 10_500n)).toBe(15); // 14.7
    expect(withBuilder(-50, 15_000n)).toBe(-50); // penalties are never scaled
  });
});

describe("streaks", () => {
  it("uses the spec's totals at 5, 10 and 20", () => {
    expect([1, 4, 5, 9, 10, 19, 20, 100].map(streakBps)).toEqual([
      10_000n,
      10_000n,
      11_500n,
      11_500n,
      12_500n,
      12_500n,
      13_500n,
      13_500n,
    ]);
  });
  it("resets after more than 7 days without a completion", () => {
    expect(nextStreak(0, null, 1000n)).toBe(1);
    expect(nextStreak(4, 1000n, 1000n + STREAK_RESET_SECONDS)).toBe(5);
    expect(nextStreak(4, 1000n, 1001n + STREAK_RESET_SECONDS)).toBe(1);
  });
});

describe("completionAward", () => {
  it("is the base XP alone without bonuses", () => {
    expect(completionAward({ reward: usdc(100), streak: 1, builderBps: 10_000n, onBoard: false })).toEqual([
      { source: "mission_complete", xp: 34 },
    ]);
  });
  it("splits a combined award into entries that add up to the rounded product", () => {
    // 34 * 1.5 * 1.15 * 1.1 = 64.515 -> 65; 34 * 1.5 = 51; 51 * 1.15 = 58.65 -> 59
    const parts = completionAward({ reward: usdc(100), streak: 5, builderBps: 15_000n, onBoard: true });
    expect(parts).toEqual([
      { source: "mission_complete", xp: 51 },
      { source: "mission_streak", xp: 8 },
      { source: "guild_board", xp: 6 },
    ]);
    expect(parts.reduce((s, p) => s + p.xp, 0)).toBe(Number(applyBps(34n, 15_000n, 11_500n, 11_000n)));
  });
});

it("reputation deltas follow the spec's table", () => {
  expect([5, 4, 3, 2, 1].map(reputationDelta)).toEqual([5, 2, 0, -3, -5]);
});

it("the reserve (DDR/LPP) is 5 % of the reward, at least 1 USDC", () => {
  expect(reserveFor(1n)).toBe(1_000_000n);
  expect(reserveFor(usdc(20))).toBe(1_000_000n);
  expect(reserveFor(usdc(100))).toBe(5_000_000n);
  expect(reserveFor(123_456_789n)).toBe(6_172_839n);
});
