// What each level unlocks (the spec's phase table), declared once: `GET /users/me`'s `unlocks` and
// every level gate of the API (premium missions, guild creation, curators, resolvers, governance)
// read this list, so what a user is told they may do and what they may do never differ.

/** Each unlock and the first level that has it, in the phase table's order. */
export const LEVEL_UNLOCKS = [
  { unlock: "posting", level: 1 },
  { unlock: "guild_joining", level: 1 },
  { unlock: "premium_missions", level: 6 },
  { unlock: "guild_creation", level: 6 },
  { unlock: "curation", level: 11 },
  { unlock: "resolving", level: 11 },
  { unlock: "governance", level: 16 },
  { unlock: "legend", level: 21 },
] as const;

export type Unlock = (typeof LEVEL_UNLOCKS)[number]["unlock"];

/** The first level that has `unlock`. */
export const levelRequiredFor = (unlock: Unlock): number => LEVEL_UNLOCKS.find((u) => u.unlock === unlock)!.level;

/** Everything `level` has unlocked, in the table's order. */
export const unlocksAt = (level: number): Unlock[] => LEVEL_UNLOCKS.filter((u) => level >= u.level).map((u) => u.unlock);

/** Whether `level` has `unlock`. */
export const hasUnlock = (level: number, unlock: Unlock): boolean => level >= levelRequiredFor(unlock);
