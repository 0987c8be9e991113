// Writes XP: a ledger row, an XP_AWARDED journal entry, the user's total and level, LEVEL_UP.
import { levelForXp, levelTitle } from "../../domain/levels.ts";
import { BPS, type XpSource, builderLevel, withBuilder } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { type UserRow, UserSet } from "./users.ts";
import { type Addr, type Ctx, type EventLike, lc } from "./types.ts";

export type Award = {
  user: Addr;
  source: XpSource;
  xp: number; // before the builder multiplier, unless `raw`
  reason: string;
  missionId?: string | null;
  missionOnChainId?: bigint | null;
  raw?: boolean; // already multiplied (completion awards) or never multiplied
  multiplierBps?: bigint; // the builder multiplier a raw award already includes, for the record
};

/** What an award does to a user's XP. */
export type XpChange = { xpDelta: number; balanceAfter: number; level: number; previousLevel: number; bps: bigint };

/**
 * The change an award makes to `user` as the row is now (pure): the builder multiplier of the user's
 * current score for positive awards; null when it changes nothing.
 */
export function xpChange(user: UserRow, a: Award): XpChange | null {
  const bps = a.raw ? (a.multiplierBps ?? BPS) : builderLevel(user.builderScore).bps;
  // Totals never go below zero: a penalty takes at most what the user has.
  const xpDelta = Math.max(a.raw ? a.xp : withBuilder(a.xp, bps), -user.totalXP);
  if (xpDelta === 0) return null;
  const balanceAfter = user.totalXP + xpDelta;
  return { xpDelta, balanceAfter, level: levelForXp(balanceAfter), previousLevel: user.level, bps };
}

/** Applies a change to the working row (the user's total and level). */
export function applyXp(user: UserRow, c: XpChange): void {
  user.totalXP = c.balanceAfter;
  user.level = c.level;
}

/**
 * Applies an award. With `users` the user's row is changed in the handler's set (written once at its
 * flush); without, in a set of its own.
 */
export async function awardXp(context: Ctx, event: EventLike, j: Journal, a: Award, users?: UserSet): Promise<number> {
  const set = users ?? new UserSet(context, event.block.timestamp);
  const c = xpChange(await set.read(a.user), a);
  if (c === null) return 0;
  await set.edit(a.user, () => ({ totalXP: c.balanceAfter, level: c.level }));
  if (!users) await set.flush();
  await recordAward(event, j, a, c);
  return c.xpDelta;
}

/** The ledger row, the XP_AWARDED entry and, when the level rose, LEVEL_UP of an applied award. */
export async function recordAward(event: EventLike, j: Journal, a: Award, c: XpChange): Promise<void> {
  const slot = j.next();
  const { key } = slot;
  await j.ledger({
    id: key.toString(),
    key,
    user: lc(a.user),
    xpDelta: c.xpDelta,
    source: a.source,
    missionId: a.missionId ?? null,
    missionOnChainId: a.missionOnChainId ?? null,
    reason: a.reason,
    balanceAfter: c.balanceAfter,
    multiplierBps: Number(c.bps),
    createdAt: event.block.timestamp,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
  });
  await j.emit(
    "XP_AWARDED",
    { ledgerId: key.toString(), user: lc(a.user), xpDelta: c.xpDelta, source: a.source, reason: a.reason, balanceAfter: c.balanceAfter },
    { missionId: a.missionId, account: a.user },
    slot,
  );
  if (c.level > c.previousLevel) {
    await j.emit(
      "LEVEL_UP",
      { user: lc(a.user), previousLevel: c.previousLevel, level: c.level, levelTitle: levelTitle(c.level), totalXP: c.balanceAfter },
      { account: a.user },
    );
  }
}
