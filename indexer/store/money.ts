// The money of each payment out of a mission's escrow, booked once per payment: the parties' totals,
// the guild's earnings and the resolver pool's inflow; plus the open settlement offers, which every
// payment and every end of the mission clears (as the escrow does).
import { guilds, missionPayments, resolverPool, settlementOffers } from "ponder:schema";
import type { DisputeId, MissionId, Settlement } from "../../domain/index.ts";
import { missionsWithOffers } from "./maybe-stored.ts";
import { type UserSet, withUsers } from "./users.ts";
import { type Addr, type Ctx, type EventLike, lc } from "./types.ts";

type Mission = { id: MissionId; onChainId: bigint; poster: Addr; guildUuid: string | null };
type Ev = EventLike & { id: string };

export const offerId = (missionId: string, byPoster: boolean) => `${missionId}:${byPoster ? "poster" : "performer"}`;

/** Deletes both parties' open offers of the mission (no-op when there are none). */
export async function clearOffers(context: Ctx, missionId: string) {
  if (!(await missionsWithOffers.may(context, missionId))) return;
  for (const byPoster of [true, false]) {
    const id = offerId(missionId, byPoster);
    if (await context.db.find(settlementOffers, { id })) await context.db.delete(settlementOffers, { id });
  }
}

/** Adds `amount` to the escrow's resolver pool (the pool's share of a settlement). */
export async function poolIn(context: Ctx, event: EventLike, amount: bigint) {
  if (amount === 0n) return;
  await context.db
    .insert(resolverPool)
    .values({ id: lc(event.log.address), balance: amount, totalIn: amount, totalOut: 0n, paidDecisions: 0, updatedBlock: event.block.number })
    .onConflictDoUpdate((p) => ({ balance: p.balance + amount, totalIn: p.totalIn + amount, updatedBlock: event.block.number }));
}

/** Takes `amount` out of the pool (a resolver's pay). */
export async function poolOut(context: Ctx, event: EventLike, amount: bigint) {
  await context.db
    .insert(resolverPool)
    .values({ id: lc(event.log.address), balance: -amount, totalIn: 0n, totalOut: amount, paidDecisions: 1, updatedBlock: event.block.number })
    .onConflictDoUpdate((p) => ({
      balance: p.balance - amount,
      totalOut: p.totalOut + amount,
      paidDecisions: p.paidDecisions + 1,
      updatedBlock: event.block.number,
    }));
}

/**
 * The money of one settlement of a performer part (approval, claim, partial release, accepted
 * settlement): the performer earned `settlement.performerAmount`, the poster spent `gross`, the guild
 * earned its share, the pool got its share.
 */
export async function bookSettlement(
  context: Ctx,
  event: EventLike,
  m: Mission,
  performer: Addr,
  gross: bigint,
  s: Settlement,
  /** The handler's user set, when it has one (store/users.ts `UserSet`). */
  users?: UserSet,
) {
  const now = event.block.timestamp;
  await withUsers(context, now, users, async (u) => {
    if (s.performerAmount > 0n) await u.edit(performer, (r) => ({ totalEarned: r.totalEarned + s.performerAmount }));
    if (gross > 0n) await u.edit(m.poster, (r) => ({ totalSpent: r.totalSpent + gross }));
  });
  if (m.guildUuid && s.guildAmount > 0n) {
    await context.db
      .update(guilds, { id: m.guildUuid })
      .set((g) => ({ totalEarned: g.totalEarned + s.guildAmount, updatedBlock: event.block.number }));
  }
  await poolIn(context, event, s.resolverAmount);
}

const NO_SETTLEMENT = { performerAmount: 0n, protocolAmount: 0n, guildAmount: 0n, labsAmount: 0n, resolverAmount: 0n };

/** One row of `mission_payments` (a release, a refund or a settlement). */
export async function recordPayment(
  context: Ctx,
  event: Ev,
  m: Mission,
  p: {
    kind: "release" | "refund" | "settlement";
    performerGross: bigint;
    posterAmount: bigint;
    settlement?: Settlement;
    remaining: bigint;
    disputeId?: DisputeId | null;
  },
) {
  const s = p.settlement ?? NO_SETTLEMENT;
  await context.db.insert(missionPayments).values({
    id: event.id,
    missionId: m.id,
    missionOnChainId: m.onChainId,
    kind: p.kind,
    performerGross: p.performerGross,
    posterAmount: p.posterAmount,
    performerAmount: s.performerAmount,
    protocolAmount: s.protocolAmount,
    guildAmount: s.guildAmount,
    labsAmount: s.labsAmount,
    poolAmount: s.resolverAmount,
    remaining: p.remaining,
    disputeId: p.disputeId ?? null,
    createdAt: event.block.timestamp,
    txHash: event.transaction.hash,
  });
}
