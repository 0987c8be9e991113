import { describe, expect, it } from "vitest";
import { LEVEL_THRESHOLDS, LEVEL_TITLES, levelForXp, levelProgress, phaseOf } from "../../domain/levels.ts";

describe("levels", () => {
  it("has 25 levels starting where the spec's phases start", () => {
    expect(LEVEL_THRESHOLDS).toHaveLength(25);
    expect(LEVEL_TITLES).toHaveLength(25);
    expect(LEVEL_THRESHOLDS[0]).toBe(0);
    expect(LEVEL_THRESHOLDS[5]).toBe(625);
    expect(LEVEL_THRESHOLDS[10]).toBe(3275);
    expect(LEVEL_THRESHOLDS[15]).toBe(11000);
    expect(LEVEL_THRESHOLDS[20]).toBe(30000);
  });
  it("has steps that never shrink", () => {
    const steps = LEVEL_THRESHOLDS.slice(1).map((t, i) => t - LEVEL_THRESHOLDS[i]!);
    for (let i = 1; i < steps.length; i++) expect(steps[i]).toBeGreaterThan(steps[i - 1]!);
  });
  it("maps the phase boundaries of the spec", () => {
    expect(levelForXp(0)).toBe(1);
    expect(levelForXp(624)).toBe(5);
    expect(levelForXp(625)).toBe(6);
    expect(levelForXp(3274)).toBe(10);
    expect(levelForXp(3275)).toBe(11);
    expect(levelForXp(10_999)).toBe(15);
    expect(levelForXp(11_000)).toBe(16);
    expect(levelForXp(29_999)).toBe(20);
    expect(levelForXp(30_000)).toBe(21);
    expect(levelForXp(10_000_000)).toBe(25);
    expect(levelForXp(-5)).toBe(1);
    expect([1, 5, 6, 11, 16, 21, 25].map(phaseOf)).toEqual([
      "Onboarding",
      "Onboarding",
      "Early Game",
      "Mid Game",
      "Late Game",
      "Prestige",
      "Prestige",
    ]);
  });
  it("reports the distance and progress to the next level", () => {
    expect(levelProgress(0)).toMatchObject({ level: 1, levelTitle: "Newcomer", xpToNextLevel: 75, progress: 0 });
    expect(levelProgress(700)).toMatchObject({ level: 6, xpToNextLevel: 175, progress: 30 });
    expect(levelProgress(60_000)).toMatchObject({
      level: 25,
      levelTitle: "Ascendant",
      xpToNextLevel: 0,
      progress: 100,
    });
  });
});
