// Levels 1..25 (pure). Thresholds meet the spec's phase table exactly (L6 = 625, L11 = 3,275,
// L16 = 11,000, L21 = 30,000). Within a phase the step to the next level grows by a constant, and
// steps never shrink across phases: 75..175 (+25), 250..810 (+140), 975..2115 (+285),
// 2400..5200 (+700), 6000..9000 (+1000).

/** LEVEL_THRESHOLDS[n - 1] is the total XP at which level n starts. */
// prettier-ignore
export const LEVEL_THRESHOLDS = [
  0, 75, 175, 300, 450, // Onboarding 1-5
  625, 875, 1265, 1795, 2465, // Early Game 6-10
  3275, 4250, 5510, 7055, 8885, // Mid Game 11-15
  11000, 13400, 16500, 20300, 24800, // Late Game 16-20
  30000, 36000, 43000, 51000, 60000, // Prestige 21-25
] as const;

// prettier-ignore
export const LEVEL_TITLES = [
  "Newcomer", "Explorer", "Scout", "Runner", "Courier",
  "Apprentice", "Journeyman", "Specialist", "Pathfinder", "Ranger",
  "Trusted", "Adept", "Expert", "Elite", "Master",
  "Captain", "Commander", "Champion", "Vanguard", "Paragon",
  "Legend", "Mythic", "Titan", "Immortal", "Ascendant",
] as const;

export const MAX_LEVEL = LEVEL_THRESHOLDS.length;

export type Phase = "Onboarding" | "Early Game" | "Mid Game" | "Late Game" | "Prestige";
const PHASES: Phase[] = ["Onboarding", "Early Game", "Mid Game", "Late Game", "Prestige"];

/** The level of a total XP. Negative totals (penalties) are level 1. */
export function levelForXp(totalXP: number | bigint): number {
  const xp = Number(totalXP);
  let level = 1;
  for (let n = 1; n < MAX_LEVEL; n++) if (xp >= LEVEL_THRESHOLDS[n]!) level = n + 1;
  return level;
}

export const levelTitle = (level: number): string => LEVEL_TITLES[level - 1]!;
export const phaseOf = (level: number): Phase => PHASES[Math.floor((level - 1) / 5)]!;

/** What the spec's XP summary shows about a total: xpToNextLevel 0 and progress 100 at level 25. */
export function levelProgress(totalXP: number | bigint): {
  level: number;
  levelTitle: string;
  phase: Phase;
  xpToNextLevel: number;
  progress: number; // integer percent 0..100, rounded down
} {
  const xp = Math.max(0, Number(totalXP));
  const level = levelForXp(xp);
  const base = { level, levelTitle: levelTitle(level), phase: phaseOf(level) };
  if (level === MAX_LEVEL) return { ...base, xpToNextLevel: 0, progress: 100 };
  const start = LEVEL_THRESHOLDS[level - 1]!;
  const next = LEVEL_THRESHOLDS[level]!;
  return { ...base, xpToNextLevel: next - xp, progress: Math.floor(((xp - start) * 100) / (next - start)) };
}
