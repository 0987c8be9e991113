// Whether a user may take a mission, and why not: the one rule that the feed's ranking and
// `factors.eligibility`, the map's `isEligible` and `POST /missions/:id/accept` all apply, so what a
// user is shown as open to them and what they may accept never differ.
import { hasUnlock, levelRequiredFor } from "./unlocks.ts";

/** The rule a refusal names (the `field` of a 403 INELIGIBLE's details). */
export type EligibilityField = "guild" | "minGuildXP" | "minReputation" | "level";

export interface EligibilityReason {
  field: EligibilityField;
  reason: string;
}

export interface EligibilityResult {
  eligible: boolean;
  reasons: EligibilityReason[];
}

/**
 * The user's side. `guildXp(guild)`: the user's guild XP in a guild they are an active member of,
 * undefined when they are not one. `reputation`: the indexer's `user_stats.reputation` (0 without a
 * row). `level`: the indexer's level (1 without a row).
 */
export interface EligibilityUser<G = string> {
  guildXp(guild: G): number | undefined;
  reputation: number;
  level: number;
}

/** The mission's side: its guild (null outside guilds), its active board entry's minimum guild XP. */
export interface EligibilityMission<G = string> {
  guild: G | null;
  minGuildXp: number | null;
  minReputation: number | null;
  premium: boolean;
}

/** Shared, frozen: the answer for an eligible user allocates nothing. */
const ELIGIBLE: EligibilityResult = Object.freeze({ eligible: true, reasons: Object.freeze([]) as unknown as EligibilityReason[] });

/**
 * The rule, once: every field the user fails, in a fixed order (guild, minGuildXP, minReputation,
 * level), pushed to `failed`; without `failed` it stops at the first failure and allocates nothing
 * (the feed's ranking asks for every mission it visits). A board entry's minimum is read only for a
 * guild mission (the read model keeps none otherwise), and a non-member fails `guild` alone, not also
 * `minGuildXP` (they have no guild XP to compare).
 */
function check<G>(user: EligibilityUser<G>, mission: EligibilityMission<G>, failed: EligibilityField[] | null): boolean {
  let ok = true;
  if (mission.guild !== null) {
    const xp = user.guildXp(mission.guild);
    if (xp === undefined || (mission.minGuildXp !== null && xp < mission.minGuildXp)) {
      if (failed === null) return false;
      failed.push(xp === undefined ? "guild" : "minGuildXP");
      ok = false;
    }
  }
  if (mission.minReputation !== null && user.reputation < mission.minReputation) {
    if (failed === null) return false;
    failed.push("minReputation");
    ok = false;
  }
  if (mission.premium && !hasUnlock(user.level, "premium_missions")) {
    if (failed === null) return false;
    failed.push("level");
    ok = false;
  }
  return ok;
}

function reasonText<G>(field: EligibilityField, user: EligibilityUser<G>, mission: EligibilityMission<G>): string {
  switch (field) {
    case "guild":
      return "only active members of the mission's guild may take it";
    case "minGuildXP":
      return `the guild board asks for ${mission.minGuildXp} guild XP; the user has ${user.guildXp(mission.guild!)}`;
    case "minReputation":
      return `the mission asks for reputation ${mission.minReputation}; the user has ${user.reputation}`;
    case "level":
      return `premium missions need level ${levelRequiredFor("premium_missions")}; the user is level ${user.level}`;
  }
}

/** Every rule the user fails, with a reason each (403 INELIGIBLE's details, `factors.eligibility`). */
export function eligibility<G>(user: EligibilityUser<G>, mission: EligibilityMission<G>): EligibilityResult {
  const failed: EligibilityField[] = [];
  if (check(user, mission, failed)) return ELIGIBLE;
  return { eligible: false, reasons: failed.map((field) => ({ field, reason: reasonText(field, user, mission) })) };
}

/** `eligibility(user, mission).eligible`, without building the reasons: allocates nothing. */
export const isEligible = <G>(user: EligibilityUser<G>, mission: EligibilityMission<G>): boolean => check(user, mission, null);

/** A user's side from a map of guild id to guild XP (active memberships only). */
export const eligibilityUser = <G>(guilds: ReadonlyMap<G, number>, reputation: number, level: number): EligibilityUser<G> => ({
  guildXp: (g) => guilds.get(g),
  reputation,
  level,
});
