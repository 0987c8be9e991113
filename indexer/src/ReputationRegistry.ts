// Off-chain XP inputs put on-chain: builder scores and referrals.
import { ponder } from "ponder:registry";
import { builderScores, referrals } from "ponder:schema";
import { XP } from "../lib/xp.ts";
import { openJournal } from "../store/journal.ts";
import { getUser, updateUser } from "../store/users.ts";
import { awardXp } from "../store/xp.ts";
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

// Referral XP is paid when the referee completes a first mission; if that happened before the
// referral was recorded, it is paid at recording.
ponder.on("ReputationRegistry:ReferralRecorded", async ({ event, context }) => {
  const { referrer, referee } = event.args;
  const t = event.block.timestamp;
  const already = (await getUser(context, referee, t)).firstMissionAwarded;
  await context.db.insert(referrals).values({
    referee: lc(referee),
    referrer: lc(referrer),
    recordedAt: t,
    rewarded: already,
    rewardedAt: already ? t : null,
    txHash: event.transaction.hash,
  });
  const j = openJournal(context, event);
  await j.emit("REFERRAL_RECORDED", event.args, { account: referrer });
  if (already)
    await awardXp(context, event, j, {
      user: referrer,
      source: "referral",
      xp: XP.referral,
      reason: `Referred ${lc(referee)} completed a first mission`,
    });
});
