// A dispute's end: payout, the mission leaves Disputed, win/loss stats, dispute XP, guild totals.
import { disputes, guilds, missions } from "ponder:schema";
import { disputeMoney, type DisputeOutcome, disputeSides, disputeUuid, type MissionState, type Payout } from "../../domain/index.ts";
import { XP } from "../../domain/xp.ts";
import { openJournal } from "./journal.ts";
import { poolIn } from "./money.ts";
import { payReferral } from "./referrals.ts";
import { updateUser } from "./users.ts";
import { awardXp } from "./xp.ts";
import { type Addr, type Ctx, type EventLike, lc, ZERO_ADDRESS } from "./types.ts";

export async function finalizeDispute(
  context: Ctx,
  event: EventLike,
  f: {
    disputeId: bigint;
    outcome: DisputeOutcome;
    splitPercentage: number;
    missionState: MissionState;
    payout: Payout;
    byDefault: boolean;
  },
) {
  const now = event.block.timestamp;
  const id = disputeUuid(context.chain.id, event.log.address, f.disputeId);
  const p = f.payout;
  const d = await context.db.update(disputes, { id }).set({
    state: "Finalized",
    outcome: f.outcome,
    splitPercentage: f.outcome === "Split" ? f.splitPercentage : null,
    missionState: f.missionState,
    byDefault: f.byDefault,
    finalizedAt: now,
    finalizedTxHash: event.transaction.hash,
    payoutPoster: p.posterAmount,
    payoutPerformer: p.performerAmount,
    payoutProtocol: p.protocolAmount,
    payoutGuild: p.guildAmount,
    payoutLabs: p.labsAmount,
    payoutResolver: p.resolverAmount,
    payoutResolverAddress: p.resolver === ZERO_ADDRESS ? null : lc(p.resolver),
    payoutPool: p.poolAmount,
    updatedBlock: event.block.number,
  });
  const completed = f.missionState === "Completed";
  const tx = event.transaction.hash;
  // An accepted settlement (MissionSettled, earlier in this transaction) already ended the mission and
  // booked its money and XP: this only closes the dispute.
  const agreed = d.settledByAgreement === true;
  const m = agreed
    ? (await context.db.find(missions, { id: d.missionId }))!
    : await context.db.update(missions, { id: d.missionId }).set({
        state: f.missionState,
        ...(completed
          ? { completedAt: now, completedTxHash: tx }
          : { cancelledAt: now, cancelledTxHash: tx, refundAmount: p.posterAmount }),
        updatedBlock: event.block.number,
        updatedAt: now,
      });
  const j = openJournal(context, event);
  const parties = { poster: d.poster, performer: d.performer };
  await j.emit(
    "DISPUTE_FINALIZED",
    {
      id,
      onChainId: f.disputeId,
      missionId: m.id,
      ...parties,
      outcome: f.outcome,
      splitPercentage: d.splitPercentage,
      missionState: f.missionState,
      payout: p,
      byDefault: f.byDefault,
      settledByAgreement: agreed,
    },
    { missionId: m.id, account: d.initiator },
  );
  await j.emit(
    completed ? "MISSION_COMPLETED" : "MISSION_CANCELLED",
    { id: m.id, onChainId: m.onChainId, ...parties, viaDispute: true, disputeId: id, payout: p, ...(agreed ? { via: "settlement" as const } : {}) },
    { missionId: m.id, account: completed ? d.performer : d.poster },
  );
  if (agreed) return;

  await poolIn(context, event, p.poolAmount);
  const money = disputeMoney({
    // The dispute was about the remainder: what partial releases and refunds had not paid out yet.
    reward: m.reward - m.released - m.refunded,
    ...parties,
    initiator: d.initiator,
    appellant: d.appellant,
    ddrAmount: d.ddrAmount,
    lppAmount: d.lppAmount,
    posterAmount: p.posterAmount,
    performerAmount: p.performerAmount,
  });
  await updateUser(context, d.performer, now, (u) => ({
    totalEarned: u.totalEarned + money.earned,
    missionsCompleted: u.missionsCompleted + (completed ? 1 : 0),
  }));
  await updateUser(context, d.poster, now, (u) => ({ totalSpent: u.totalSpent + money.spent }));
  if (completed) {
    const ids = { missionId: m.id, missionOnChainId: m.onChainId };
    await payReferral(context, event, j, d.performer, ids);
    await payReferral(context, event, j, d.poster, ids);
  }
  if (m.guildUuid && (completed || p.guildAmount > 0n)) {
    await context.db.update(guilds, { id: m.guildUuid }).set((g) => ({
      totalEarned: g.totalEarned + p.guildAmount,
      totalCompleted: g.totalCompleted + (completed ? 1 : 0),
      updatedBlock: event.block.number,
    }));
  }

  const { winner } = disputeSides(f.outcome);
  if (winner === null) return;
  const [won, lost] = winner === "poster" ? [d.poster, d.performer] : [d.performer, d.poster];
  const ids = { missionId: m.id, missionOnChainId: m.onChainId };
  await updateUser(context, won, now, (u) => ({ disputesWon: u.disputesWon + 1 }));
  // A performer who loses a dispute breaks their streak of consecutive completions.
  await updateUser(context, lost, now, (u) => ({
    disputesLost: u.disputesLost + 1,
    ...(lost === d.performer ? { streakCount: 0 } : {}),
  }));
  const reason = (verb: string) => `${verb} dispute ${f.disputeId}`;
  await awardXp(context, event, j, {
    user: won,
    source: "dispute_won",
    xp: XP.disputeWon,
    reason: reason("Won"),
    ...ids,
  });
  await awardXp(context, event, j, {
    user: lost,
    source: "dispute_lost",
    xp: XP.disputeLost,
    reason: reason("Lost"),
    ...ids,
  });
}
