// Everything a completion the parties agreed to derives (approval, claim, the last partial release,
// an accepted settlement): XP (base, streak, board, first mission, referral, curation), the completion
// count, guild totals and the performer's guild XP. The money of each payment is booked apart
// (store/money.ts `bookPayment`), once per payment.
import { boardEntries, guildMembers, guilds } from "ponder:schema";
import { boardEntryId, memberId } from "../../domain/index.ts";
import { builderLevel, completionAward, nextStreak, XP } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { payReferral } from "./referrals.ts";
import { getUser, updateUser } from "./users.ts";
import { awardXp } from "./xp.ts";
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
) {
  const now = event.block.timestamp;
  const ids = { missionId: m.id, missionOnChainId: m.onChainId };
  const user = await getUser(context, performer, now);
  const streak = nextStreak(user.streakCount, user.lastCompletionAt, now);
  const entry = m.guildOnChainId ? await context.db.find(boardEntries, { id: boardEntryId(m.guildOnChainId, m.onChainId) }) : null;
  const onBoard = entry?.active === true;

  let missionXp = 0;
  const builderBps = builderLevel(user.builderScore).bps;
  for (const part of completionAward({ reward: paid, streak, builderBps, onBoard })) {
    const reason =
      part.source === "mission_complete"
        ? `Completed mission ${m.onChainId}`
        : part.source === "mission_streak"
          ? `Streak of ${streak} completions`
          : `Mission ${m.onChainId} from the guild board`;
    missionXp += await awardXp(context, event, j, {
      user: performer,
      source: part.source,
      xp: part.xp,
      reason,
      raw: true,
      multiplierBps: builderBps,
      ...ids,
    });
  }
  await updateUser(context, performer, now, (u) => ({
    streakCount: streak,
    lastCompletionAt: now,
    missionsCompleted: u.missionsCompleted + 1,
    firstMissionAwarded: true,
  }));

  if (!user.firstMissionAwarded) {
    await awardXp(context, event, j, {
      user: performer,
      source: "first_mission",
      xp: XP.firstMission,
      reason: "First completed mission",
      ...ids,
    });
  }
  // Either party's first completion pays their referrer (once: payReferral checks).
  await payReferral(context, event, j, performer, ids);
  await payReferral(context, event, j, m.poster, ids);
  if (onBoard && entry) {
    await awardXp(context, event, j, {
      user: entry.curator,
      source: "curation_success",
      xp: XP.curationSuccess,
      reason: `Curated mission ${m.onChainId} completed`,
      ...ids,
    });
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
