// Pure mappings from indexed rows to the spec's shapes (User, User stats, ratings, XP, NFT).
import { levelProgress } from "../../../domain/levels.ts";
import { builderLevel } from "../../../domain/xp.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import type { ChainRatingRow, LedgerRow, NftRow, ProfileRepository, UserStatsRow } from "../../repositories/profile.repository.ts";
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
    globalXP: stats?.totalXP ?? 0,
    reputation: stats?.reputation ?? 0,
    totalEarned: (stats?.totalEarned ?? 0n).toString(),
    totalSpent: (stats?.totalSpent ?? 0n).toString(),
    createdAt: u?.createdAt.toISOString() ?? null,
    lastActiveAt: u?.lastActiveAt.toISOString() ?? null,
  };
}

export function userStatsView(stats: UserStatsRow | null) {
  return {
    missionsPosted: stats?.missionsPosted ?? 0,
    missionsCompleted: stats?.missionsCompleted ?? 0,
    ratingCount: stats?.ratingCount ?? 0,
    averageRating: average(stats?.ratingSum ?? 0, stats?.ratingCount ?? 0),
    disputesWon: stats?.disputesWon ?? 0,
    disputesLost: stats?.disputesLost ?? 0,
  };
}

/** The off-chain text when the rating was made through the API, else the on-chain comment. */
const ratingComment = (r: ChainRatingRow) => r.apiComment ?? r.comment;
const ratingCreatedAt = (r: ChainRatingRow) => r.apiCreatedAt?.toISOString() ?? isoFromSeconds(r.time);

/** The addresses a list of ratings shows (for one privacy lookup per response). */
export const ratingParties = (rows: ChainRatingRow[]) => rows.flatMap((r) => [r.rater, r.ratee]);

export function ratingProfileView(r: ChainRatingRow, lens: PrivacyLens) {
  return {
    id: r.apiId ?? r.uid,
    missionId: r.missionId ?? r.missionOnChainId.toString(),
    rater: { id: r.raterId ?? r.rater, displayName: lens.field(r.rater, "displayName", r.raterName ?? "") },
    ratee: { id: r.rateeId ?? r.ratee, displayName: lens.field(r.ratee, "displayName", r.rateeName ?? "") },
    score: r.score,
    comment: ratingComment(r),
    createdAt: ratingCreatedAt(r),
  };
}

export function ratingMissionView(r: ChainRatingRow, lens: PrivacyLens) {
  return {
    id: r.apiId ?? r.uid,
    rater: { id: r.raterId ?? r.rater, displayName: lens.field(r.rater, "displayName", r.raterName ?? ""), evmAddress: r.rater },
    ratee: { id: r.rateeId ?? r.ratee, displayName: lens.field(r.ratee, "displayName", r.rateeName ?? ""), evmAddress: r.ratee },
    score: r.score,
    comment: ratingComment(r),
    easUid: r.uid,
    isOnChain: true,
    createdAt: ratingCreatedAt(r),
  };
}

export function ratingStatsView(userId: string, counts: Pick<Awaited<ReturnType<ProfileRepository["ratingCounts"]>>[number], "score" | "raterRole" | "n" | "sum">[]) {
  const dist: Record<"5" | "4" | "3" | "2" | "1", number> = { "5": 0, "4": 0, "3": 0, "2": 0, "1": 0 };
  let n = 0, sum = 0;
  const side = { performer: { n: 0, sum: 0 }, poster: { n: 0, sum: 0 } };
  for (const c of counts) {
    const k = String(c.score) as keyof typeof dist;
    if (k in dist) dist[k] += c.n;
    n += c.n;
    sum += c.sum;
    // raterRole is the rater's side: a poster's rating is received as performer, and vice versa.
    const s = c.raterRole === "poster" ? side.performer : c.raterRole === "performer" ? side.poster : null;
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
  const total = stats?.totalXP ?? 0;
  const p = levelProgress(total);
  const b = builderLevel(stats?.builderScore);
  return {
    userId,
    totalXP: total,
    level: p.level,
    levelTitle: p.levelTitle,
    xpToNextLevel: p.xpToNextLevel,
    progress: p.progress,
    // No score from the provider: shown as 0 / novice / 1.0 (no bonus).
    builderScore: stats?.builderScore ?? 0,
    builderLevel: b.level ?? "novice",
    xpMultiplier: Number(b.bps) / 10_000,
  };
}

export const ledgerView = (r: LedgerRow) => ({
  id: r.id,
  xpDelta: r.xpDelta,
  source: r.source,
  missionId: r.missionId,
  reason: r.reason,
  balanceAfter: r.balanceAfter,
  createdAt: isoFromSeconds(r.createdAt),
});

export function nftView(r: NftRow, completedAt: bigint | null | undefined) {
  return {
    id: r.tokenId.toString(),
    tokenId: r.tokenId.toString(),
    contractAddress: r.contractAddress,
    type: r.type,
    name: r.name,
    description: r.description,
    image: r.image,
    isSoulbound: r.soulbound,
    attributes: {
      achievementId: r.achievementId.toString(),
      missionId: r.missionId,
      completedAt: isoFromSeconds(completedAt ?? null),
    },
    mintedAt: isoFromSeconds(r.mintedAt),
  };
}
