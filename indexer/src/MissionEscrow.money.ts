// Money in trouble: settlement offers, accepted settlements (before or inside a dispute), partial
// releases and refunds, and the resolver pool's payments.
import { ponder } from "ponder:registry";
import { disputes, missions, settlementOffers } from "ponder:schema";
import { disputeUuid, type MissionId, missionState, missionUuid } from "../../domain/index.ts";
import { deriveCompletion } from "../store/completion.ts";
import { missionsWithOffers } from "../store/maybe-stored.ts";
import { openJournal } from "../store/journal.ts";
import { bookSettlement, clearOffers, offerId, poolOut, recordPayment } from "../store/money.ts";
import { type Ctx, type EventLike, lc } from "../store/types.ts";
import { UserSet } from "../store/users.ts";

const missionOf = (chainId: number, escrow: `0x${string}`, onChainId: bigint) => missionUuid(chainId, escrow, onChainId);
/** An offer changes the mission as its parties see it: the row's update marks it (the real-time feed follows it). */
const touch = (context: Ctx, event: EventLike, id: MissionId) =>
  context.db.update(missions, { id }).set({ updatedBlock: event.block.number, updatedAt: event.block.timestamp });

ponder.on("MissionEscrow:SettlementOffered", async ({ event, context }) => {
  const { missionId, party, byPoster, performerAmount, posterAmount } = event.args;
  const id = missionOf(context.chain.id, event.log.address, missionId);
  const row = {
    missionId: id, missionOnChainId: missionId, party: lc(party), byPoster, performerAmount, posterAmount,
    createdAt: event.block.timestamp, txHash: event.transaction.hash,
  };
  await missionsWithOffers.add(context, id);
  await context.db.insert(settlementOffers).values({ id: offerId(id, byPoster), ...row }).onConflictDoUpdate(row);
  const m = await touch(context, event, id);
  await openJournal(context, event).emit(
    "MISSION_SETTLEMENT_OFFERED",
    { ...event.args, id, poster: m.poster, performer: m.performer! },
    { missionId: id, account: byPoster ? m.performer : m.poster },
  );
});

ponder.on("MissionEscrow:SettlementWithdrawn", async ({ event, context }) => {
  const { missionId, byPoster } = event.args;
  const id = missionOf(context.chain.id, event.log.address, missionId);
  if (await context.db.find(settlementOffers, { id: offerId(id, byPoster) })) {
    await context.db.delete(settlementOffers, { id: offerId(id, byPoster) });
  }
  const m = await touch(context, event, id);
  await openJournal(context, event).emit(
    "MISSION_SETTLEMENT_WITHDRAWN",
    { ...event.args, id, poster: m.poster, performer: m.performer! },
    { missionId: id, account: byPoster ? m.performer : m.poster },
  );
});

ponder.on("MissionEscrow:MissionReleased", async ({ event, context }) => {
  const { missionId, performer, amount, settlement, remaining } = event.args;
  const id = missionOf(context.chain.id, event.log.address, missionId);
  const done = remaining === 0n;
  const t = event.block.timestamp;
  const m = await context.db.update(missions, { id }).set((r) => ({
    released: r.released + amount,
    ...(done ? { state: "Completed" as const, completedAt: t, completedTxHash: event.transaction.hash } : {}),
    updatedBlock: event.block.number,
    updatedAt: t,
  }));
  await recordPayment(context, event, m, { kind: "release", performerGross: amount, posterAmount: 0n, settlement, remaining });
  const users = new UserSet(context, t);
  await bookSettlement(context, event, m, performer, amount, settlement, users);
  await clearOffers(context, id);
  const j = openJournal(context, event);
  const parties = { poster: m.poster, performer: lc(performer) };
  await j.emit("MISSION_RELEASED", { ...event.args, id, ...parties }, { missionId: id, account: performer });
  if (!done) return users.flush();
  await j.emit(
    "MISSION_COMPLETED",
    { id, onChainId: missionId, ...parties, settlement, byClaim: false, viaDispute: false, via: "release" },
    { missionId: id, account: performer },
  );
  await deriveCompletion(context, event, j, m, performer, m.released, users);
  await users.flush();
});

ponder.on("MissionEscrow:MissionRefunded", async ({ event, context }) => {
  const { missionId, poster, amount, remaining } = event.args;
  const id = missionOf(context.chain.id, event.log.address, missionId);
  const done = remaining === 0n;
  const t = event.block.timestamp;
  const m = await context.db.update(missions, { id }).set((r) => ({
    refunded: r.refunded + amount,
    ...(done ? { state: "Cancelled" as const, refundAmount: amount, cancelledAt: t, cancelledTxHash: event.transaction.hash } : {}),
    updatedBlock: event.block.number,
    updatedAt: t,
  }));
  await recordPayment(context, event, m, { kind: "refund", performerGross: 0n, posterAmount: amount, remaining });
  await clearOffers(context, id);
  const j = openJournal(context, event);
  const parties = { poster: lc(poster), performer: m.performer! };
  await j.emit("MISSION_REFUNDED", { ...event.args, id, ...parties }, { missionId: id, account: poster });
  if (done) {
    await j.emit("MISSION_CANCELLED", { missionId, poster, refund: amount, id, performer: m.performer, via: "refund" }, { missionId: id, account: poster });
  }
});

/**
 * An accepted settlement. Its money, the mission's end and the completion's XP are booked here, before
 * or inside a dispute alike; inside a dispute the DisputeFinalized that follows in the same transaction
 * closes the dispute and books nothing more (store/disputes.ts, `settledByAgreement`): no dispute XP.
 */
ponder.on("MissionEscrow:MissionSettled", async ({ event, context }) => {
  const { missionId, disputeId: onChainDisputeId, performerAmount, posterAmount, settlement, state } = event.args;
  const id = missionOf(context.chain.id, event.log.address, missionId);
  const disputeId = onChainDisputeId === 0n ? null : disputeUuid(context.chain.id, event.log.address, onChainDisputeId);
  const ms = missionState(state);
  const completed = ms === "Completed";
  const t = event.block.timestamp;
  const tx = event.transaction.hash;
  const m = await context.db.update(missions, { id }).set({
    state: ms,
    ...(completed ? { completedAt: t, completedTxHash: tx } : { refundAmount: posterAmount, cancelledAt: t, cancelledTxHash: tx }),
    updatedBlock: event.block.number,
    updatedAt: t,
  });
  if (disputeId) await context.db.update(disputes, { id: disputeId }).set({ settledByAgreement: true, updatedBlock: event.block.number });
  await recordPayment(context, event, m, { kind: "settlement", performerGross: performerAmount, posterAmount, settlement, remaining: 0n, disputeId });
  const users = new UserSet(context, t);
  await bookSettlement(context, event, m, m.performer!, performerAmount, settlement, users);
  await clearOffers(context, id);
  const j = openJournal(context, event);
  const parties = { poster: m.poster, performer: m.performer! };
  await j.emit(
    "MISSION_SETTLED",
    { ...event.args, id, ...parties, disputeUuid: disputeId, missionState: ms },
    { missionId: id, account: m.performer },
  );
  // Inside a dispute the DisputeFinalized of this transaction announces the mission's end.
  if (!disputeId) {
    if (completed) {
      await j.emit(
        "MISSION_COMPLETED",
        { id, onChainId: missionId, ...parties, settlement, byClaim: false, viaDispute: false, via: "settlement" },
        { missionId: id, account: m.performer },
      );
    } else {
      await j.emit(
        "MISSION_CANCELLED",
        { missionId, poster: m.poster, refund: posterAmount, id, performer: m.performer, via: "settlement" },
        { missionId: id, account: m.poster },
      );
    }
  }
  if (completed) await deriveCompletion(context, event, j, m, m.performer!, m.released + performerAmount, users);
  await users.flush();
});

ponder.on("MissionEscrow:ResolverPaid", async ({ event, context }) => {
  const { disputeId, resolver, amount, poolAfter } = event.args;
  const id = disputeUuid(context.chain.id, event.log.address, disputeId);
  await poolOut(context, event, amount);
  const d = await context.db.update(disputes, { id }).set({ resolverPoolAfter: poolAfter, updatedBlock: event.block.number });
  await openJournal(context, event).emit(
    "RESOLVER_PAID",
    { ...event.args, id, missionUuid: d.missionId },
    { missionId: d.missionId, account: resolver },
  );
});
