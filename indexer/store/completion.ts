// Everything a completion the parties agreed to derives (approval, claim, the last partial release,
// an accepted settlement): XP (base, streak, board, first mission, referral, curation), the completion
// count, guild totals and the performer's guild XP. The money of each payment is booked apart
// (store/money.ts `bookPayment`), once per payment.
import { boardEntries, guildMembers, guilds } from "ponder:schema";
import { boardEntryId, memberId } from "../../domain/index.ts";
import { builderLevel, completionAward, nextStreak, XP } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { payReferral } from "./referrals.ts";
import { type UserSet, withUsers } from "./users.ts";
import { type Award, applyXp, awardXp, recordAward, type XpChange, xpChange } from "./xp.ts";
import { type Addr, type Ctx, type EventLike } from "./types.ts";

type Mission = {
  id: string;
  onChainId: bigint;
  poster: Addr;
  guildOnChainId: number;
  guildUuid: string | null;
  reward: bigint;
};

export async function deriveCompletion(
  context: Ctx,
  event: EventLike,
  j: Journal,
  m: Mission,
  performer: Addr,
  /** What the performer's side was actually paid for the mission (gross, before fees): the XP's basis. */
  paid: bigint,
  /** The handler's user set, when it has one (store/users.ts `UserSet`). */
  users?: UserSet,
) {
  return withUsers(context, event.block.timestamp, users, (u) => derive(context, event, j, m, performer, paid, u));
}

async function derive(context: Ctx, event: EventLike, j: Journal, m: Mission, performer: Addr, paid: bigint, users: UserSet) {
  const now = event.block.timestamp;
  const ids = { missionId: m.id, missionOnChainId: m.onChainId };
  const entry = m.guildOnChainId ? await context.db.find(boardEntries, { id: boardEntryId(m.guildOnChainId, m.onChainId) }) : null;
  const onBoard = entry?.active === true;

  // The performer's own awards (mission XP, streak, board, first mission) are a function of their row
  // alone: computed where the row is written (one upsert, no find first), recorded in the same order.
  const { streak, missionsCompleted, awards, missionXp } = await users.apply(performer, (user) => {
    // Read before the awards below change the row.
    const { streakCount, lastCompletionAt, builderScore, firstMissionAwarded, missionsCompleted } = user;
    const streak = nextStreak(streakCount, lastCompletionAt, now);
    const builderBps = builderLevel(builderScore).bps;
    const awards: { a: Award; c: XpChange }[] = [];
    const award = (a: Award) => {
      const c = xpChange(user, a);
      if (c === null) return;
      applyXp(user, c);
      awards.push({ a, c });
    };
    for (const part of completionAward({ reward: paid, streak, builderBps, onBoard })) {
      const reason =
        part.source === "mission_complete"
          ? `Completed mission ${m.onChainId}`
          : part.source === "mission_streak"
            ? `Streak of ${streak} completions`
            : `Mission ${m.onChainId} from the guild board`;
      award({ user: performer, source: part.source, xp: part.xp, reason, raw: true, multiplierBps: builderBps, ...ids });
    }
    const missionXp = awards.reduce((sum, { c }) => sum + c.xpDelta, 0);
    user.streakCount = streak;
    user.lastCompletionAt = now;
    user.missionsCompleted += 1;
    user.firstMissionAwarded = true;
    if (!firstMissionAwarded) {
      award({ user: performer, source: "first_mission", xp: XP.firstMission, reason: "First completed mission", ...ids });
    }
    return { streak, missionsCompleted, awards, missionXp };
  });
  for (const { a, c } of awards) await recordAward(event, j, a, c);

  // Either party's first completion pays their referrer (once: payReferral checks). A performer with a
  // completion before this one has no unpaid referral: every completion that counted in
  // missionsCompleted asked payReferral, and a referral recorded after it was paid at recording (the
  // mission stays Completed), so the find is skipped (one store call a completion in a backfill).
  if (missionsCompleted === 0) await payReferral(context, event, j, performer, ids, users);
  await payReferral(context, event, j, m.poster, ids, users);
  if (onBoard && entry) {
    await awardXp(context, event, j, {
      user: entry.curator,
      source: "curation_success",
      xp: XP.curationSuccess,
      reason: `Curated mission ${m.onChainId} completed`,
      ...ids,
    }, users);
  }
  if (m.guildOnChainId && m.guildUuid) {
    await context.db.update(guilds, { id: m.guildUuid }).set((g) => ({
      totalCompleted: g.totalCompleted + 1,
      updatedBlock: event.block.number,
    }));
    const member = await context.db.find(guildMembers, { id: memberId(m.guildOnChainId, performer) });
    if (member?.active && missionXp > 0) {
      await context.db
        .update(guildMembers, { id: member.id })
        .set({ guildXP: member.guildXP + missionXp, updatedBlock: event.block.number });
    }
  }
  return { streak, onBoard, missionXp };
}
