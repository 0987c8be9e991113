// Pure mappings from indexed rows to the spec's shapes (User, User stats, ratings, XP, NFT).
import { levelProgress } from "../../../domain/levels.ts";
import { builderLevel } from "../../../domain/xp.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import type { ChainRatingRow, LedgerRow, NftRow, UserStatsRow } from "../../repositories/profile.repository.ts";
import { OPEN_LENS, type PrivacyLens } from "../privacy.ts";

/** Unix seconds (string/bigint) -> ISO 8601; null stays null (a present input gives a string). */
export function isoFromSeconds(s: string | bigint | number): string;
export function isoFromSeconds(s: string | bigint | number | null | undefined): string | null;
export function isoFromSeconds(s: string | bigint | number | null | undefined): string | null {
  return s === null || s === undefined ? null : new Date(Number(s) * 1000).toISOString();
}

/** Two decimals, as a number (averages of integer scores; no money involved). */
export const average = (sum: number, count: number): number => (count === 0 ? 0 : Math.round((sum * 100) / count) / 100);

export interface Subject {
  address: string;
  user: UserRow | null;
}

/** The id a client sees for a party: the API user id when the address has signed in, else the address. */
export const subjectId = (s: Subject) => s.user?.id ?? s.address;

/** `lens`: the viewer's (the owner's own view by default); a hidden displayName or bio is null. */
export function userView(s: Subject, stats: UserStatsRow | null, lens: PrivacyLens = OPEN_LENS) {
  const u = s.user;
  return {
    id: subjectId(s),
    evmAddress: s.address,
    solanaAddress: u?.solanaAddress ?? null,
    displayName: lens.field(s.address, "displayName", u?.displayName ?? ""),
    avatar: u?.avatar ?? "",
    bio: lens.field(s.address, "bio", u?.bio ?? ""),
    globalXP: stats?.total_xp ?? 0,
    reputation: stats?.reputation ?? 0,
    totalEarned: stats?.total_earned ?? "0",
    totalSpent: stats?.total_spent ?? "0",
    createdAt: u?.createdAt.toISOString() ?? null,
    lastActiveAt: u?.lastActiveAt.toISOString() ?? null,
  };
}

export function userStatsView(stats: UserStatsRow | null) {
  return {
    missionsPosted: stats?.missions_posted ?? 0,
    missionsCompleted: stats?.missions_completed ?? 0,
    ratingCount: stats?.rating_count ?? 0,
    averageRating: average(stats?.rating_sum ?? 0, stats?.rating_count ?? 0),
    disputesWon: stats?.disputes_won ?? 0,
    disputesLost: stats?.disputes_lost ?? 0,
  };
}

/** The off-chain text when the rating was made through the API, else the on-chain comment. */
const ratingComment = (r: ChainRatingRow) => r.api_comment ?? r.comment;
const ratingCreatedAt = (r: ChainRatingRow) => r.api_created_at?.toISOString() ?? isoFromSeconds(r.time)!;

/** The addresses a list of ratings shows (for one privacy lookup per response). */
export const ratingParties = (rows: ChainRatingRow[]) => rows.flatMap((r) => [r.rater, r.ratee]);

export function ratingProfileView(r: ChainRatingRow, lens: PrivacyLens) {
  return {
    id: r.api_id ?? r.uid,
    missionId: r.mission_id ?? r.mission_on_chain_id,
    rater: { id: r.rater_id ?? r.rater, displayName: lens.field(r.rater, "displayName", r.rater_name ?? "") },
    ratee: { id: r.ratee_id ?? r.ratee, displayName: lens.field(r.ratee, "displayName", r.ratee_name ?? "") },
    score: r.score,
    comment: ratingComment(r),
    createdAt: ratingCreatedAt(r),
  };
}

export function ratingMissionView(r: ChainRatingRow, lens: PrivacyLens) {
  return {
    id: r.api_id ?? r.uid,
    rater: { id: r.rater_id ?? r.rater, displayName: lens.field(r.rater, "displayName", r.rater_name ?? ""), evmAddress: r.rater },
    ratee: { id: r.ratee_id ?? r.ratee, displayName: lens.field(r.ratee, "displayName", r.ratee_name ?? ""), evmAddress: r.ratee },
    score: r.score,
    comment: ratingComment(r),
    easUid: r.uid,
    isOnChain: true,
    createdAt: ratingCreatedAt(r),
  };
}

export function ratingStatsView(userId: string, counts: { score: number; rater_role: string | null; n: number; sum: number }[]) {
  const dist: Record<"5" | "4" | "3" | "2" | "1", number> = { "5": 0, "4": 0, "3": 0, "2": 0, "1": 0 };
  let n = 0, sum = 0;
  const side = { performer: { n: 0, sum: 0 }, poster: { n: 0, sum: 0 } };
  for (const c of counts) {
    const k = String(c.score) as keyof typeof dist;
    if (k in dist) dist[k] += c.n;
    n += c.n;
    sum += c.sum;
    // rater_role is the rater's side: a poster's rating is received as performer, and vice versa.
    const s = c.rater_role === "poster" ? side.performer : c.rater_role === "performer" ? side.poster : null;
    if (s) { s.n += c.n; s.sum += c.sum; }
  }
  return {
    userId,
    averageScore: average(sum, n),
    totalRatings: n,
    ratingDistribution: dist,
    asPerformer: { average: average(side.performer.sum, side.performer.n), count: side.performer.n },
    asPoster: { average: average(side.poster.sum, side.poster.n), count: side.poster.n },
  };
}

export function xpSummaryView(userId: string, stats: UserStatsRow | null) {
  const total = stats?.total_xp ?? 0;
  const p = levelProgress(total);
  const b = builderLevel(stats?.builder_score);
  return {
    userId,
    totalXP: total,
    level: p.level,
    levelTitle: p.levelTitle,
    xpToNextLevel: p.xpToNextLevel,
    progress: p.progress,
    // No score from the provider: shown as 0 / novice / 1.0 (no bonus).
    builderScore: stats?.builder_score ?? 0,
    builderLevel: b.level ?? "novice",
    xpMultiplier: Number(b.bps) / 10_000,
  };
}

export const ledgerView = (r: LedgerRow) => ({
  id: r.id,
  xpDelta: r.xp_delta,
  source: r.source,
  missionId: r.mission_id,
  reason: r.reason,
  balanceAfter: r.balance_after,
  createdAt: isoFromSeconds(r.created_at),
});

export function nftView(r: NftRow, completedAt: string | null | undefined) {
  return {
    id: r.token_id,
    tokenId: r.token_id,
    contractAddress: r.contract_address,
    type: r.type,
    name: r.name,
    description: r.description,
    image: r.image,
    isSoulbound: r.soulbound,
    attributes: {
      achievementId: r.achievement_id,
      missionId: r.mission_id,
      completedAt: isoFromSeconds(completedAt ?? null),
    },
    mintedAt: isoFromSeconds(r.minted_at),
  };
}
