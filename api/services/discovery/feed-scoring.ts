// The personal feed's ranking (spec "Ranking weights"). Every factor is normalised to 0..1:
//   reward     log10(1 + reward in USDC) / log10(1 + 1000): 1000 USDC and above = 1.
//   urgency    1 - hoursLeft / 168: expiring now = 1, a week or more away = 0.
//   distance   1 - d / 50 km (0 beyond); 0.5 when the user or the mission has no location.
//   xpMatch    1 - |experience - difficulty|: experience = min(1, userXP / 3275 (level 11)),
//              difficulty = the reward score (bigger missions suit experienced users).
//   posterRep  (average rating - 1) / 4; 0.5 for posters with no counted rating.
//   category   engagement(category) / max engagement over the user's categories; 0 without any.
// finalScore = weighted sum x guildBoost (1.5 for missions of the user's guilds, else 1), so 0..1.5.
// Ineligible missions stay visible but rank after every eligible one (see sortFeed).

// This file is the formula's one home: the feed index (feed-index/rank.ts) and the SQL ranking
// (api/repositories/discovery-feed.sql.ts, built from the constants below) follow it, and tests compare
// both with it over random inputs (test/unit/feed-index-rank.test.ts, test/e2e/feed-formula.test.ts).

export const WEIGHTS = { reward: 0.25, urgency: 0.2, distance: 0.2, xpMatch: 0.15, posterReputation: 0.1, categoryPreference: 0.1 } as const;
export const GUILD_BOOST = 1.5;
/** A reward of this many USDC or more scores 1. */
export const REWARD_CAP_USDC = 1000;
/** Hours before expiry from which urgency rises above 0 (a week). */
export const URGENCY_HOURS = 168;
/** Meters from the reader at which the distance score reaches 0. */
export const DISTANCE_HORIZON_M = 50_000;
/** The score of an unknown: no location (distance), no counted rating (poster reputation). */
export const NEUTRAL_SCORE = 0.5;
/** XP at which a user counts as experienced (level 11). */
export const EXPERIENCED_XP = 3275;
const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

export const rewardScore = (rewardUnits: bigint) => clamp01(Math.log10(1 + Number(rewardUnits) / 1e6) / Math.log10(1 + REWARD_CAP_USDC));
export const urgencyScore = (expiresAtSec: number, nowSec: number) => clamp01(1 - (expiresAtSec - nowSec) / 3600 / URGENCY_HOURS);
export const distanceScore = (meters: number | null) => (meters === null ? NEUTRAL_SCORE : clamp01(1 - meters / DISTANCE_HORIZON_M));
/** The user's side of xpMatch: 1 from level 11 (3275 XP) on. */
export const experience = (userXp: number) => clamp01(userXp / EXPERIENCED_XP);
export const xpMatchScore = (userXp: number, reward: number) => clamp01(1 - Math.abs(experience(userXp) - reward));
export const posterReputationScore = (ratingSum: number, ratingCount: number) =>
  ratingCount > 0 ? clamp01((ratingSum / ratingCount - 1) / 4) : NEUTRAL_SCORE;

/** Engagement points per category (lowercased): completed x3, rated >= 4 x2, view 1 + dwell minutes (max 5), search hit 1. */
export interface Engagement {
  completed: Record<string, number>;
  ratedWell: Record<string, number>;
  views: Record<string, { count: number; dwellMs: number }>;
  searches: Record<string, number>;
}

export function categoryPreferences(e: Engagement): Map<string, number> {
  const pts = new Map<string, number>();
  const add = (c: string, p: number) => pts.set(c.toLowerCase(), (pts.get(c.toLowerCase()) ?? 0) + p);
  for (const [c, n] of Object.entries(e.completed)) add(c, 3 * n);
  for (const [c, n] of Object.entries(e.ratedWell)) add(c, 2 * n);
  for (const [c, v] of Object.entries(e.views)) add(c, v.count + Math.min(5 * v.count, v.dwellMs / 60_000));
  for (const [c, n] of Object.entries(e.searches)) add(c, n);
  const max = Math.max(0, ...pts.values());
  const out = new Map<string, number>();
  if (max > 0) for (const [c, p] of pts) out.set(c, p / max);
  return out;
}

export interface Factors {
  eligibility: boolean;
  rewardScore: number;
  urgencyScore: number;
  distanceScore: number;
  xpMatchScore: number;
  guildBoost: number;
  posterReputationScore: number;
  categoryPreferenceScore: number;
  finalScore: number;
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function combine(f: Omit<Factors, "finalScore">): Factors {
  const sum =
    WEIGHTS.reward * f.rewardScore + WEIGHTS.urgency * f.urgencyScore + WEIGHTS.distance * f.distanceScore +
    WEIGHTS.xpMatch * f.xpMatchScore + WEIGHTS.posterReputation * f.posterReputationScore +
    WEIGHTS.categoryPreference * f.categoryPreferenceScore;
  return {
    eligibility: f.eligibility,
    rewardScore: r4(f.rewardScore),
    urgencyScore: r4(f.urgencyScore),
    distanceScore: r4(f.distanceScore),
    xpMatchScore: r4(f.xpMatchScore),
    guildBoost: f.guildBoost,
    posterReputationScore: r4(f.posterReputationScore),
    categoryPreferenceScore: r4(f.categoryPreferenceScore),
    finalScore: r4(sum * f.guildBoost),
  };
}

export type SortBy = "relevance" | "reward" | "distance" | "urgency";
export interface Scored {
  factors: Factors;
  reward: bigint;
  distance: number | null;
  expiresAt: number;
  id: string;
}

/** Eligible first; then by the chosen key (ties: finalScore, then id for a stable order). */
export function sortFeed<T extends Scored>(items: T[], sortBy: SortBy): T[] {
  const key = (a: T, b: T): number => {
    switch (sortBy) {
      case "reward": return a.reward === b.reward ? 0 : a.reward > b.reward ? -1 : 1;
      case "distance": return (a.distance ?? Infinity) - (b.distance ?? Infinity);
      case "urgency": return a.expiresAt - b.expiresAt;
      default: return 0;
    }
  };
  return [...items].sort(
    (a, b) =>
      Number(b.factors.eligibility) - Number(a.factors.eligibility) ||
      key(a, b) ||
      b.factors.finalScore - a.factors.finalScore ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
