// Per-user stats rows (created on first sight, all counters zero).
import { userStats } from "ponder:schema";
import { type Addr, type Ctx, lc } from "./types.ts";

export type UserRow = typeof userStats.$inferSelect;

export async function getUser(context: Ctx, address: Addr, now: bigint): Promise<UserRow> {
  // A copy: Ponder's cache hands out the row object it later mutates on update.
  const found = await context.db.find(userStats, { address: lc(address) });
  if (found) return { ...found };
  const created = await context.db.insert(userStats).values({
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
  return { ...created };
}

export async function updateUser(
  context: Ctx,
  address: Addr,
  now: bigint,
  change: (row: UserRow) => Partial<UserRow>,
): Promise<UserRow> {
  const row = await getUser(context, address, now);
  return context.db.update(userStats, { address: lc(address) }).set({ ...change(row), updatedAt: now });
}
