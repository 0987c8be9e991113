// Mission lifecycle of the escrow: one row per mission, its settlement, stats, XP and the journal.
import { ponder } from "ponder:registry";
import { missions, settlements } from "ponder:schema";
import { guildUuid, missionUuid } from "../../domain/index.ts";
import { readDeployment } from "../lib/deployment.ts";
import { reserveFor } from "../../domain/xp.ts";
import { openJournal } from "../store/journal.ts";
import { deriveCompletion } from "../store/completion.ts";
import { bookSettlement, clearOffers } from "../store/money.ts";
import { missionStep, type MissionRow } from "../store/missions.ts";
import { updateUser, UserSet } from "../store/users.ts";
import { lc, ZERO_ADDRESS, type Addr } from "../store/types.ts";

const guildRegistry = readDeployment().contracts.GuildRegistry.address;

/** The performer of a mission past acceptance, from its row (MissionAccepted set it). */
function performerOf(m: MissionRow): Addr {
  if (!m.performer) throw new Error(`mission ${m.id}: no performer after acceptance`);
  return m.performer as Addr;
}

ponder.on("MissionEscrow:MissionCreated", async ({ event, context }) => {
  const { missionId: onChainId, poster, guildId, reward, expiresAt, guildFeeBps, detailsHash } = event.args;
  const ddrAmount = reserveFor(reward);
  const id = missionUuid(context.chain.id, event.log.address, onChainId);
  const t = event.block.timestamp;
  await context.db.insert(missions).values({
    id,
    chainId: context.chain.id,
    onChainId,
    escrowAddress: lc(event.log.address),
    poster: lc(poster),
    performer: null,
    guildOnChainId: guildId,
    guildUuid: guildId ? guildUuid(context.chain.id, guildRegistry, guildId) : null,
    reward,
    ddrAmount,
    guildFeeBps,
    state: "Open",
    released: 0n,
    refunded: 0n,
    detailsHash,
    expiresAt,
    createdAt: t,
    createdTxHash: event.transaction.hash,
    createdBlock: event.block.number,
    updatedBlock: event.block.number,
    updatedAt: t,
  });
  await updateUser(context, poster, t, (u) => ({ missionsPosted: u.missionsPosted + 1 }));
  await openJournal(context, event).emit("MISSION_CREATED", { ...event.args, id }, { missionId: id, account: poster });
});

ponder.on("MissionEscrow:MissionDetailsUpdated", async ({ event, context }) => {
  const m = await missionStep(context, event, event.args.missionId, (tx) => ({
    detailsHash: event.args.detailsHash,
    detailsUpdatedTxHash: tx,
  }));
  await openJournal(context, event).emit(
    "MISSION_DETAILS_UPDATED",
    { ...event.args, id: m.id },
    { missionId: m.id, account: m.poster },
  );
});

ponder.on("MissionEscrow:MissionAccepted", async ({ event, context }) => {
  const { missionId, performer } = event.args;
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Accepted",
    performer: lc(performer),
    acceptedAt: t,
    acceptedTxHash: tx,
  }));
  // The event does not repeat the terms (issue 40, G1 gas): acceptance reverts unless they are the
  // mission's current detailsHash, which the row holds (MissionCreated / MissionDetailsUpdated).
  await openJournal(context, event).emit(
    "MISSION_ACCEPTED",
    { missionId, performer, detailsHash: m.detailsHash, id: m.id, poster: m.poster },
    { missionId: m.id, account: m.poster },
  );
});

ponder.on("MissionEscrow:MissionSubmitted", async ({ event, context }) => {
  const { missionId, proofHash, reviewDeadline } = event.args;
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Submitted",
    proofHash,
    reviewDeadline,
    submittedAt: t,
    submittedTxHash: tx,
  }));
  // The performer is the row's (set by MissionAccepted; the event does not repeat it: issue 40, G1 gas).
  await openJournal(context, event).emit(
    "MISSION_SUBMITTED",
    { missionId, performer: performerOf(m), proofHash, reviewDeadline, id: m.id, poster: m.poster },
    { missionId: m.id, account: m.poster },
  );
});

ponder.on("MissionEscrow:MissionCompleted", async ({ event, context }) => {
  const { missionId, settlement: s, byClaim } = event.args;
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Completed",
    completedAt: t,
    completedTxHash: tx,
  }));
  const performer = performerOf(m); // the row's: the event does not repeat it (issue 40, G1 gas)
  await context.db.insert(settlements).values({
    missionId: m.id,
    onChainId: missionId,
    performer: lc(performer),
    ...s,
    byClaim,
    settledAt: event.block.timestamp,
    txHash: event.transaction.hash,
  });
  // Buffered: the completion's journal entries and XP ledger rows go in one insert per table.
  const j = openJournal(context, event, { buffered: true });
  await j.emit(
    "MISSION_COMPLETED",
    {
      id: m.id,
      onChainId: missionId,
      poster: m.poster,
      performer: lc(performer),
      settlement: s,
      byClaim,
      viaDispute: false,
    },
    { missionId: m.id, account: performer },
  );
  // The settlement is of the remainder (the reward unless parts were released or refunded before).
  const remainder = m.reward - m.released - m.refunded;
  // The performer's and the poster's stats: read once, written once (store/users.ts `UserSet`).
  const users = new UserSet(context, event.block.timestamp);
  await bookSettlement(context, event, m, performer, remainder, s, users);
  await clearOffers(context, m.id);
  await deriveCompletion(context, event, j, m, performer, m.released + remainder, users);
  await users.flush();
  await j.flush();
});

ponder.on("MissionEscrow:MissionCancelled", async ({ event, context }) => {
  const { missionId, refund } = event.args;
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Cancelled",
    refundAmount: refund,
    cancelledAt: t,
    cancelledTxHash: tx,
  }));
  await openJournal(context, event).emit(
    "MISSION_CANCELLED",
    { ...event.args, id: m.id },
    { missionId: m.id, account: m.poster },
  );
});

ponder.on("MissionEscrow:MissionExpired", async ({ event, context }) => {
  const { missionId, performer, refund } = event.args;
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Expired",
    refundAmount: refund,
    expiredAt: t,
    expiredTxHash: tx,
  }));
  // A performer who let an accepted mission expire breaks their streak.
  if (performer !== ZERO_ADDRESS)
    await updateUser(context, performer, event.block.timestamp, () => ({ streakCount: 0 }));
  await openJournal(context, event).emit(
    "MISSION_EXPIRED",
    { ...event.args, id: m.id },
    { missionId: m.id, account: m.poster },
  );
});
