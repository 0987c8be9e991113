// The feed's formula as float8 SQL expressions, built from the constants of its one home,
// api/services/discovery/feed-scoring.ts (and geo.ts for the distance). Pure SQL text:
// discovery-feed.repository.ts ranks with it, and test/e2e/feed-formula.test.ts runs each expression in
// PostgreSQL over random inputs and compares it with the TypeScript function it mirrors.
//
// Each expression does the TypeScript function's IEEE operations in the same order (so the same doubles
// up to the last bit of the libm functions): radians as (d * pi) / 180, x² as x * x, Math.round(x) as
// floor(x + 0.5), clamp01 as least(1, greatest(0, x)). Arguments are SQL expressions.
import {
  DISTANCE_HORIZON_M, NEUTRAL_SCORE, REWARD_CAP_USDC, URGENCY_HOURS,
} from "../services/discovery/feed-scoring.ts";
import { EARTH_RADIUS_M } from "../services/discovery/geo.ts";

const f8 = (x: number) => `${x}::float8`;
export const clamp01 = (x: string) => `least(1::float8, greatest(0::float8, ${x}))`;
const rad = (x: string) => `((${x}) * pi() / 180)`;

/** geo.ts distanceMeters (haversine, meters). */
export function haversineSql(lat1: string, lng1: string, lat2: string, lng2: string): string {
  const sLat = `sin(${rad(`${lat2} - ${lat1}`)} / 2)`;
  const sLng = `sin(${rad(`${lng2} - ${lng1}`)} / 2)`;
  return `(2 * ${f8(EARTH_RADIUS_M)} * asin(least(1::float8, sqrt(${sLat} * ${sLat} + cos(${rad(lat1)}) * cos(${rad(lat2)}) * (${sLng} * ${sLng})))))`;
}

/** The distance a reader is shown, to 0.1 m (discovery.service.ts shownDistance). */
export const shownDistanceSql = (lat1: string, lng1: string, lat2: string, lng2: string) =>
  `floor(${haversineSql(lat1, lng1, lat2, lng2)} * 10 + 0.5) / 10`;

/** rewardScore(reward in base units, numeric). */
export const rewardScoreSql = (reward: string) => clamp01(`log(1 + ${reward}::float8 / 1e6) / log(${f8(1 + REWARD_CAP_USDC)})`);

/** urgencyScore(expires_at, now), both bigint seconds. */
export const urgencyScoreSql = (expiresAt: string, now: string) => clamp01(`1 - (${expiresAt} - ${now})::float8 / 3600 / ${URGENCY_HOURS}`);

/** distanceScore(meters or NULL). */
export const distanceScoreSql = (meters: string) =>
  `CASE WHEN ${meters} IS NULL THEN ${f8(NEUTRAL_SCORE)} ELSE ${clamp01(`1 - ${meters} / ${DISTANCE_HORIZON_M}`)} END`;

/** xpMatchScore from the reader's experience (feed-scoring experience(), passed in) and the reward score. */
export const xpMatchScoreSql = (experience: string, rewardScore: string) => clamp01(`1 - abs(${experience}::float8 - ${rewardScore})`);

/** posterReputationScore(rating_sum, rating_count). */
export const posterScoreSql = (ratingSum: string, ratingCount: string) =>
  `CASE WHEN ${ratingCount} > 0 THEN ${clamp01(`(${ratingSum}::float8 / ${ratingCount} - 1) / 4`)} ELSE ${f8(NEUTRAL_SCORE)} END`;

export interface FactorsSql {
  reward: string;
  urgency: string;
  distance: string;
  xpMatch: string;
  posterReputation: string;
  categoryPreference: string;
}

/** combine()'s finalScore: the weighted sum times the guild boost, rounded to 4 decimals. */
export const finalScoreSql = (w: FactorsSql, f: FactorsSql, guildBoost: string) =>
  `floor((${w.reward} * ${f.reward} + ${w.urgency} * ${f.urgency} + ${w.distance} * ${f.distance} + ${w.xpMatch} * ${f.xpMatch}
         + ${w.posterReputation} * ${f.posterReputation} + ${w.categoryPreference} * ${f.categoryPreference}) * ${guildBoost} * 10000 + 0.5) / 10000`;
