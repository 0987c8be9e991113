// Writes XP: a ledger row, an XP_AWARDED journal entry, the user's total and level, LEVEL_UP.
import { xpLedger } from "ponder:schema";
import { levelForXp, levelTitle } from "../../domain/levels.ts";
import { BPS, type XpSource, builderLevel, withBuilder } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { getUser, type UserRow, updateUser } from "./users.ts";
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

/** Applies the builder multiplier of the user's current score (positive awards only). */
export async function awardXp(context: Ctx, event: EventLike, j: Journal, a: Award): Promise<number> {
  const now = event.block.timestamp;
  let user: UserRow;
  let xpDelta: number;
  let bps: bigint;
  let balanceAfter: number;
  let level: number;
  if (a.raw && a.xp > 0) {
    // A positive award of a known size (completions): read and write the user in one upsert
    // instead of a find plus an upsert. The change function runs on the zero row first (insert
    // values), then on the stored row when there is one: the last call saw the real row.
    let seen: UserRow | undefined;
    await updateUser(context, a.user, now, (u) => {
      seen = { ...u };
      return { totalXP: u.totalXP + a.xp, level: levelForXp(u.totalXP + a.xp) };
    });
    user = seen!;
    bps = a.multiplierBps ?? BPS;
    xpDelta = a.xp;
    balanceAfter = user.totalXP + xpDelta;
    level = levelForXp(balanceAfter);
  } else {
    user = await getUser(context, a.user, now);
    bps = a.raw ? (a.multiplierBps ?? BPS) : builderLevel(user.builderScore).bps;
    // Totals never go below zero: a penalty takes at most what the user has.
    xpDelta = Math.max(a.raw ? a.xp : withBuilder(a.xp, bps), -user.totalXP);
    if (xpDelta === 0) return 0;
    balanceAfter = user.totalXP + xpDelta;
    level = levelForXp(balanceAfter);
    await updateUser(context, a.user, now, () => ({ totalXP: balanceAfter, level }));
  }
  const slot = j.next();
  const { key } = slot;
  await context.db.insert(xpLedger).values({
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
  if (level > user.level) {
    await j.emit(
      "LEVEL_UP",
      { user: lc(a.user), previousLevel: user.level, level, levelTitle: levelTitle(level), totalXP: balanceAfter },
      { account: a.user },
    );
  }
  return xpDelta;
}
