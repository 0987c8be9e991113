// Ratings: EAS attestations of the rating schema (the config filters on its uid). The data is read
// from the EAS contract at the event's block.
import { ponder } from "ponder:registry";
import { ratings } from "ponder:schema";
import { readDeployment } from "../lib/deployment.ts";
import { openJournal } from "../store/journal.ts";
import { applyRating, decodeRating, judgeRating } from "../store/ratings.ts";
import { lc } from "../store/types.ts";

const { ratingSchemaUid, relayer, deployer, contracts } = readDeployment();

ponder.on("EAS:Attested", async ({ event, context }) => {
  if (event.args.schemaUID.toLowerCase() !== ratingSchemaUid.toLowerCase()) return;
  const a = await context.client.readContract({
    abi: context.contracts.EAS.abi,
    address: event.log.address,
    functionName: "getAttestation",
    args: [event.args.uid],
  });
  const r = decodeRating(a.data);
  const verdict = await judgeRating(context, r, a, [relayer, deployer], contracts.MissionEscrow.address);
  await context.db.insert(ratings).values({
    uid: event.args.uid,
    schemaUid: a.schema,
    missionIdRaw: r.missionId,
    missionOnChainId: BigInt(r.missionId),
    missionId: verdict.mission?.id ?? null,
    rater: lc(r.rater),
    ratee: lc(r.ratee),
    score: r.score,
    comment: r.comment,
    timestamp: r.timestamp,
    attester: lc(a.attester),
    recipient: lc(a.recipient),
    time: a.time,
    revocable: a.revocable,
    counted: verdict.counted,
    ignoredReason: verdict.reason,
    raterRole: verdict.raterRole,
    reputationDelta: verdict.reputationDelta,
    txHash: event.transaction.hash,
    blockNumber: event.block.number,
  });
  const j = openJournal(context, event);
  await j.emit(
    "RATING_ATTESTED",
    {
      uid: event.args.uid,
      missionUuid: verdict.mission?.id ?? null,
      ...r,
      counted: verdict.counted,
      ignoredReason: verdict.reason,
    },
    { missionId: verdict.mission?.id, account: r.ratee },
  );
  if (verdict.counted && verdict.mission)
    await applyRating(context, event, j, r, verdict.mission, verdict.reputationDelta);
});
