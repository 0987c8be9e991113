// Per-user stats rows: created by the first change, all counters starting at zero.
import { userStats } from "ponder:schema";
import { type Addr, type Ctx, lc } from "./types.ts";

export type UserRow = typeof userStats.$inferSelect;

const fresh = (address: Addr, now: bigint): UserRow => ({
  address: lc(address),
  totalEarned: 0n,
  totalSpent: 0n,
  missionsPosted: 0,
  missionsCompleted: 0,
  disputesWon: 0,
  disputesLost: 0,
  ratingCount: 0,
  ratingSum: 0,
  reputation: 0,
  totalXP: 0,
  level: 1,
  streakCount: 0,
  lastCompletionAt: null,
  firstMissionAwarded: false,
  builderScore: null,
  firstSeenAt: now,
  updatedAt: now,
});

/** The user's row, or the zero row of a user not seen yet (not stored). */
export async function getUser(context: Ctx, address: Addr, now: bigint): Promise<UserRow> {
  // A copy: Ponder's cache hands out the row object it later mutates on update.
  const found = await context.db.find(userStats, { address: lc(address) });
  return found ? { ...found } : fresh(address, now);
}

/** Applies `change` (a function of the current row) in one upsert. */
export async function updateUser(
  context: Ctx,
  address: Addr,
  now: bigint,
  change: (row: UserRow) => Partial<UserRow>,
): Promise<UserRow> {
  const zero = fresh(address, now);
  return context.db
    .insert(userStats)
    .values({ ...zero, ...change(zero) })
    .onConflictDoUpdate((row) => ({ ...change(row), updatedAt: now }));
}
