// Writes XP: a ledger row, an XP_AWARDED journal entry, the user's total and level, LEVEL_UP.
import { levelForXp, levelTitle } from "../../domain/levels.ts";
import { BPS, type XpSource, builderLevel, withBuilder } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { UserSet } from "./users.ts";
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

/**
 * Applies the builder multiplier of the user's current score (positive awards only). With `users` the
 * user's row is changed in the handler's set (written once at its flush); without, in a set of its own.
 */
export async function awardXp(context: Ctx, event: EventLike, j: Journal, a: Award, users?: UserSet): Promise<number> {
  const now = event.block.timestamp;
  const set = users ?? new UserSet(context, now);
  const user = await set.read(a.user);
  const previousLevel = user.level;
  const bps = a.raw ? (a.multiplierBps ?? BPS) : builderLevel(user.builderScore).bps;
  // Totals never go below zero: a penalty takes at most what the user has.
  const xpDelta = Math.max(a.raw ? a.xp : withBuilder(a.xp, bps), -user.totalXP);
  if (xpDelta === 0) return 0;
  const balanceAfter = user.totalXP + xpDelta;
  const level = levelForXp(balanceAfter);
  await set.edit(a.user, () => ({ totalXP: balanceAfter, level }));
  if (!users) await set.flush();
  const slot = j.next();
  const { key } = slot;
  await j.ledger({
    id: key.toString(),
    key,
    user: lc(a.user),
    xpDelta,
    source: a.source,
    missionId: a.missionId ?? null,
    missionOnChainId: a.missionOnChainId ?? null,
    reason: a.reason,
    balanceAfter,
    multiplierBps: Number(bps),
    createdAt: now,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
  });
  await j.emit(
    "XP_AWARDED",
    { ledgerId: key.toString(), user: lc(a.user), xpDelta, source: a.source, reason: a.reason, balanceAfter },
    { missionId: a.missionId, account: a.user },
    slot,
  );
  if (level > previousLevel) {
    await j.emit(
      "LEVEL_UP",
      { user: lc(a.user), previousLevel, level, levelTitle: levelTitle(level), totalXP: balanceAfter },
      { account: a.user },
    );
  }
  return xpDelta;
}
