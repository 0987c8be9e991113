// Which rating attestations count, and what a counted one changes.
import { and, eq } from "ponder";
import { guilds, missions, ratings } from "ponder:schema";
import { decodeAbiParameters, parseAbiParameters } from "viem";
import { missionUuid, type Rating } from "../../domain/index.ts";
import { reputationDelta, XP } from "../../domain/xp.ts";
import type { Journal } from "./journal.ts";
import { updateUser } from "./users.ts";
import { awardXp } from "./xp.ts";
import { type Addr, type Ctx, type EventLike, lc } from "./types.ts";

export const RATING_SCHEMA =
  "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";
const params = parseAbiParameters(RATING_SCHEMA);

type MissionRow = typeof missions.$inferSelect;
export type Verdict = {
  counted: boolean;
  reason: string | null;
  mission: MissionRow | null;
  raterRole: "poster" | "performer" | null;
  reputationDelta: number;
};

export function decodeRating(data: `0x${string}`): Rating {
  const [missionId, rater, ratee, score, comment, timestamp] = decodeAbiParameters(params, data);
  return { missionId, rater, ratee, score, comment, timestamp };
}

/**
 * A rating counts when: it is not revocable; the score is 1..5; the mission (bytes32 = on-chain id)
 * exists and is Completed; rater and ratee are its poster and performer, one each; the attester is
 * the rater or the service (relayer or deployer, delegated attestations); and it is the rater's
 * first counted rating of that mission. Others are stored with `counted` false and the reason.
 */
export async function judgeRating(
  context: Ctx,
  r: Rating,
  a: { attester: Addr; revocable: boolean },
  service: Addr[],
  escrow: Addr,
): Promise<Verdict> {
  const mission = await context.db.find(missions, { id: missionUuid(context.chain.id, escrow, BigInt(r.missionId)) });
  const no = (reason: string): Verdict => ({
    counted: false,
    reason,
    mission: mission ?? null,
    raterRole: null,
    reputationDelta: 0,
  });
  if (a.revocable) return no("revocable");
  if (r.score < 1 || r.score > 5) return no("score out of range");
  if (!mission) return no("unknown mission");
  if (mission.state !== "Completed") return no("mission not completed");
  const [rater, ratee, poster, performer] = [lc(r.rater), lc(r.ratee), mission.poster, mission.performer];
  const raterRole =
    rater === poster && ratee === performer ? "poster" : rater === performer && ratee === poster ? "performer" : null;
  if (!raterRole) return no("rater and ratee are not the mission's parties");
  const attester = lc(a.attester);
  if (attester !== rater && !service.some((s) => lc(s) === attester))
    return no("attester is neither the rater nor the service");
  const [dup] = await context.db.sql
    .select({ uid: ratings.uid })
    .from(ratings)
    .where(and(eq(ratings.missionOnChainId, mission.onChainId), eq(ratings.rater, rater), eq(ratings.counted, true)))
    .limit(1);
  if (dup) return no("duplicate");
  return { counted: true, reason: null, mission, raterRole, reputationDelta: reputationDelta(r.score) };
}

export async function applyRating(
  context: Ctx,
  event: EventLike,
  j: Journal,
  r: Rating,
  mission: MissionRow,
  delta: number,
) {
  await updateUser(context, r.ratee, event.block.timestamp, (u) => ({
    ratingCount: u.ratingCount + 1,
    ratingSum: u.ratingSum + r.score,
    reputation: u.reputation + delta,
  }));
  if (mission.guildUuid && delta !== 0) {
    await context.db
      .update(guilds, { id: mission.guildUuid })
      .set((g) => ({ guildReputation: g.guildReputation + delta }));
  }
  if (r.score === 5) {
    await awardXp(context, event, j, {
      user: r.ratee,
      source: "perfect_rating",
      xp: XP.perfectRating,
      reason: `5/5 rating on mission ${mission.onChainId}`,
      missionId: mission.id,
      missionOnChainId: mission.onChainId,
    });
  }
}
