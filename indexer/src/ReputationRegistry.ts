// Off-chain XP inputs put on-chain: builder scores and referrals.
import { ponder } from "ponder:registry";
import { builderScores, referrals } from "ponder:schema";
import { openJournal } from "../store/journal.ts";
import { referees } from "../store/maybe-stored.ts";
import { hasCompletedMission, payReferral } from "../store/referrals.ts";
import { updateUser } from "../store/users.ts";
import { lc } from "../store/types.ts";

ponder.on("ReputationRegistry:BuilderScoreSet", async ({ event, context }) => {
  const { account, score, provider } = event.args;
  const row = { score, provider: lc(provider), updatedAt: event.block.timestamp, txHash: event.transaction.hash };
  await context.db
    .insert(builderScores)
    .values({ account: lc(account), ...row })
    .onConflictDoUpdate(row);
  await updateUser(context, account, event.block.timestamp, () => ({ builderScore: score }));
  await openJournal(context, event).emit("BUILDER_SCORE_SET", event.args, { account });
});

// Referral XP is paid at the referee's first completion as poster or performer (store/referrals.ts);
// if one happened before the referral was recorded, it is paid at recording.
ponder.on("ReputationRegistry:ReferralRecorded", async ({ event, context }) => {
  const { referrer, referee } = event.args;
  await referees.add(context, lc(referee));
  await context.db.insert(referrals).values({
    referee: lc(referee),
    referrer: lc(referrer),
    recordedAt: event.block.timestamp,
    rewarded: false,
    rewardedAt: null,
    txHash: event.transaction.hash,
  });
  const j = openJournal(context, event);
  await j.emit("REFERRAL_RECORDED", event.args, { account: referrer });
  if (await hasCompletedMission(context, referee)) await payReferral(context, event, j, referee);
});
