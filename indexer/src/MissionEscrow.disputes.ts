// The dispute court of the escrow: one row per dispute, the mission's way out of Disputed,
// dispute stats and dispute XP.
import { ponder } from "ponder:registry";
import { disputes } from "ponder:schema";
import { disputeOutcome, disputeUuid, missionState } from "../../domain/index.ts";
import { openJournal } from "../store/journal.ts";
import { missionStep } from "../store/missions.ts";
import { type Ctx, lc } from "../store/types.ts";
import { finalizeDispute } from "../store/disputes.ts";

type Ev = { log: { address: `0x${string}` }; block: { number: bigint } };
const step = (context: Ctx, event: Ev, disputeId: bigint, change: Partial<typeof disputes.$inferInsert>) =>
  context.db
    .update(disputes, { id: disputeUuid(context.chain.id, event.log.address, disputeId) })
    .set({ ...change, updatedBlock: event.block.number });

ponder.on("MissionEscrow:DisputeRaised", async ({ event, context }) => {
  const { disputeId, missionId, initiator, ddrAmount, reasonHash } = event.args;
  const id = disputeUuid(context.chain.id, event.log.address, disputeId);
  const m = await missionStep(context, event, missionId, (tx, t) => ({
    state: "Disputed",
    disputeId: id,
    ddrAmount,
    disputedAt: t,
    disputedTxHash: tx,
  }));
  await context.db.insert(disputes).values({
    id,
    onChainId: disputeId,
    escrowAddress: lc(event.log.address),
    missionId: m.id,
    missionOnChainId: missionId,
    poster: m.poster,
    performer: m.performer!,
    initiator: lc(initiator),
    state: "Pending",
    outcome: "None",
    ddrAmount,
    lppAmount: 0n,
    reasonHash,
    createdAt: event.block.timestamp,
    raisedTxHash: event.transaction.hash,
    updatedBlock: event.block.number,
  });
  await openJournal(context, event).emit(
    "DISPUTE_RAISED",
    { ...event.args, id, missionUuid: m.id, poster: m.poster, performer: m.performer },
    { missionId: m.id, account: initiator },
  );
});

ponder.on("MissionEscrow:DisputeAssigned", async ({ event, context }) => {
  const d = await step(context, event, event.args.disputeId, {
    state: "Investigating",
    resolver: lc(event.args.resolver),
    resolutionDeadline: event.args.deadline,
    assignedAt: event.block.timestamp,
  });
  await openJournal(context, event).emit(
    "DISPUTE_ASSIGNED",
    { ...event.args, id: d.id },
    { missionId: d.missionId, account: event.args.resolver },
  );
});

ponder.on("MissionEscrow:DisputeReleased", async ({ event, context }) => {
  const d = await step(context, event, event.args.disputeId, {
    state: "Pending",
    resolver: null,
    resolutionDeadline: null,
    assignedAt: null,
  });
  await openJournal(context, event).emit(
    "DISPUTE_RELEASED",
    { ...event.args, id: d.id },
    { missionId: d.missionId, account: event.args.resolver },
  );
});

ponder.on("MissionEscrow:EvidenceSubmitted", async ({ event, context }) => {
  const { disputeId, isPoster, evidenceHash } = event.args;
  const d = await step(
    context,
    event,
    disputeId,
    isPoster ? { posterEvidenceHash: evidenceHash } : { performerEvidenceHash: evidenceHash },
  );
  await openJournal(context, event).emit(
    "DISPUTE_EVIDENCE_SUBMITTED",
    { ...event.args, id: d.id },
    { missionId: d.missionId, account: event.args.party },
  );
});

ponder.on("MissionEscrow:DisputeResolved", async ({ event, context }) => {
  const { disputeId, outcome, splitPercentage, resolutionHash, appealDeadline } = event.args;
  const o = disputeOutcome(outcome);
  const d = await step(context, event, disputeId, {
    state: "Resolved",
    outcome: o,
    splitPercentage: o === "Split" ? splitPercentage : null,
    resolutionHash,
    resolvedAt: event.block.timestamp,
    appealDeadline,
    resolvedTxHash: event.transaction.hash,
  });
  await openJournal(context, event).emit(
    "DISPUTE_RESOLVED",
    { ...event.args, outcome: o, id: d.id, poster: d.poster, performer: d.performer },
    { missionId: d.missionId, account: d.initiator },
  );
});

ponder.on("MissionEscrow:DisputeAppealed", async ({ event, context }) => {
  const { disputeId, appellant, lppAmount, decisionDeadline } = event.args;
  const id = disputeUuid(context.chain.id, event.log.address, disputeId);
  const d = await context.db.update(disputes, { id }).set((row) => ({
    state: "Appealed",
    appellant: lc(appellant),
    lppAmount,
    appealedAt: event.block.timestamp,
    appealDecisionDeadline: decisionDeadline,
    appealedOutcome: row.outcome,
    appealedTxHash: event.transaction.hash,
    updatedBlock: event.block.number,
  }));
  await openJournal(context, event).emit(
    "DISPUTE_APPEALED",
    { ...event.args, id: d.id, poster: d.poster, performer: d.performer },
    { missionId: d.missionId, account: appellant },
  );
});

ponder.on("MissionEscrow:AppealDecided", async ({ event, context }) => {
  const { disputeId, appealResolver, outcome, splitPercentage, resolutionHash, overturned } = event.args;
  const o = disputeOutcome(outcome);
  const d = await step(context, event, disputeId, {
    outcome: o,
    splitPercentage: o === "Split" ? splitPercentage : null,
    resolutionHash,
    appealResolver: lc(appealResolver),
    appealOverturned: overturned,
  });
  await openJournal(context, event).emit(
    "DISPUTE_APPEAL_DECIDED",
    { ...event.args, outcome: o, id: d.id },
    { missionId: d.missionId, account: d.appellant },
  );
});

ponder.on("MissionEscrow:DisputeFinalized", async ({ event, context }) => {
  const { disputeId, outcome, splitPercentage, missionState: ms, payout, byDefault } = event.args;
  await finalizeDispute(context, event, {
    disputeId,
    outcome: disputeOutcome(outcome),
    splitPercentage,
    missionState: missionState(ms),
    payout,
    byDefault,
  });
});
