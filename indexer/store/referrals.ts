// Referral XP: paid to the referrer once, the first time the referee completes a mission as poster or
// performer (or at recording, when that already happened). `referrals.rewarded` is the once: every
// completion may ask, only the first after recording finds it unpaid.
import { and, eq, or } from "ponder";
import { missions, referrals } from "ponder:schema";
import { XP } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { referees } from "./maybe-stored.ts";
import type { UserSet } from "./users.ts";
import { awardXp } from "./xp.ts";
import { type Addr, type Ctx, type EventLike, lc } from "./types.ts";

/** Whether `account` was poster or performer of a mission that is Completed (with or without a dispute). */
export async function hasCompletedMission(context: Ctx, account: Addr): Promise<boolean> {
  const a = lc(account);
  const [row] = await context.db.sql
    .select({ id: missions.id })
    .from(missions)
    .where(and(eq(missions.state, "Completed"), or(eq(missions.poster, a), eq(missions.performer, a))))
    .limit(1);
  return row !== undefined;
}

/** Pays `referee`'s referrer if a referral is recorded and not paid yet; returns whether it paid. */
export async function payReferral(
  context: Ctx,
  event: EventLike,
  j: Journal,
  referee: Addr,
  ids: { missionId?: string; missionOnChainId?: bigint } = {},
  /** The handler's user set, when it has one (store/users.ts `UserSet`). */
  users?: UserSet,
): Promise<boolean> {
  if (!(await referees.may(context, lc(referee)))) return false;
  const referral = await context.db.find(referrals, { referee: lc(referee) });
  if (!referral || referral.rewarded) return false;
  await context.db
    .update(referrals, { referee: lc(referee) })
    .set({ rewarded: true, rewardedAt: event.block.timestamp });
  await awardXp(context, event, j, {
    user: referral.referrer,
    source: "referral",
    xp: XP.referral,
    reason: `Referred ${lc(referee)} completed a first mission`,
    ...ids,
  }, users);
  return true;
}
