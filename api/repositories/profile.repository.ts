// Profile reads of indexed chain data (user stats, ratings, XP ledger, NFTs, builder scores) through
// the typed Ponder tables (rows are the schema's, bigint columns as bigint), and the profile area's
// own tables (rating texts, achievement mints, builder refreshes).
import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { ratings as apiRatings } from "../db/profile.schema.ts";
import { users } from "../db/schema.ts";
import type { MissionId } from "../../domain/index.ts";
import { chainRead } from "./chain-query.ts";
import { preparedName } from "./prepared-name.ts";

type Hex = `0x${string}`;
type Chain = Pick<ChainTables, "userStats" | "missions" | "ratings" | "xpLedger" | "nfts" | "achievementDefinitions" | "journal">;
export type UserStatsRow = ChainTables["userStats"]["$inferSelect"];
/** An indexed rating with the API's record of it (api.ratings) and the parties' accounts, when present. */
export type ChainRatingRow = Awaited<ReturnType<ProfileRepository["ratingsOfMission"]>>[number];
export type ApiRatingRow = typeof apiRatings.$inferSelect;
export type LedgerRow = Awaited<ReturnType<ProfileRepository["ledger"]>>[number];
export type NftRow = Awaited<ReturnType<ProfileRepository["nfts"]>>[number];

export function profileRepository(pool: pg.Pool, db: Db, chain: Chain, chainSchema: string) {
  const { userStats: st, missions: m, ratings: r, xpLedger: x, nfts: n, achievementDefinitions: ad, journal: j } = chain;
  // api.ratings under another name: the chain's table is "ratings" too.
  const ar = alias(apiRatings, "a");
  const ur = alias(users, "ur");
  const ue = alias(users, "ue");
  const ratingSelect = () =>
    db.select({
      ...getTableColumns(r), apiId: ar.id, apiComment: ar.comment, apiCreatedAt: ar.createdAt,
      raterId: ur.id, raterName: ur.displayName, rateeId: ue.id, rateeName: ue.displayName,
    })
      .from(r)
      .leftJoin(ar, eq(ar.easUid, r.uid))
      .leftJoin(ur, eq(ur.evmAddress, r.rater))
      .leftJoin(ue, eq(ue.evmAddress, r.ratee));
  // Every profile, XP summary and level gate reads it.
  const userStatsQ = db.select().from(st).where(eq(st.address, sql.placeholder("address"))).prepare(preparedName("user_stats", chainSchema));
  return {
    async userStats(address: string): Promise<UserStatsRow | null> {
      const [row] = await chainRead(userStatsQ.execute({ address: address.toLowerCase() }));
      return row ?? null;
    },
    async mission(idOrOnChainId: string) {
      const byUuid = /^[0-9a-f-]{36}$/i.test(idOrOnChainId);
      const [row] = await chainRead(
        db.select({ id: m.id, onChainId: m.onChainId, poster: m.poster, performer: m.performer, state: m.state }).from(m)
          .where(byUuid ? eq(m.id, idOrOnChainId.toLowerCase() as MissionId) : eq(m.onChainId, BigInt(idOrOnChainId))),
      );
      return row ?? null;
    },
    /** Counted ratings received by `address`, newest first. */
    async ratingsReceived(address: string) {
      return chainRead(ratingSelect().where(and(eq(r.ratee, address.toLowerCase() as Hex), eq(r.counted, true))).orderBy(desc(r.blockNumber), asc(r.uid)));
    },
    async ratingsOfMission(onChainId: bigint) {
      return chainRead(ratingSelect().where(and(eq(r.missionOnChainId, onChainId), eq(r.counted, true))).orderBy(asc(r.blockNumber), asc(r.uid)));
    },
    async chainRating(uid: string) {
      const [row] = await chainRead(ratingSelect().where(eq(r.uid, uid.toLowerCase() as Hex)));
      return row ?? null;
    },
    /** Counted ratings received, by score and by the rater's side. */
    async ratingCounts(address: string) {
      return chainRead(
        db.select({ score: r.score, raterRole: r.raterRole, n: count(), sum: sql<number>`sum(${r.score})::int`.mapWith(Number) }).from(r)
          .where(and(eq(r.ratee, address.toLowerCase() as Hex), eq(r.counted, true))).groupBy(r.score, r.raterRole),
      );
    },
    async ledger(address: string, limit: number) {
      return chainRead(
        db.select({ id: x.id, xpDelta: x.xpDelta, source: x.source, missionId: x.missionId, reason: x.reason, balanceAfter: x.balanceAfter, createdAt: x.createdAt })
          .from(x).where(eq(x.user, address.toLowerCase() as Hex)).orderBy(desc(x.key)).limit(limit),
      );
    },
    async leaderboard(limit: number, buildersOnly: boolean) {
      return chainRead(
        db.select({ address: st.address, totalXP: st.totalXP, builderScore: st.builderScore, userId: users.id, displayName: users.displayName })
          .from(st).leftJoin(users, eq(users.evmAddress, st.address))
          .where(buildersOnly ? isNotNull(st.builderScore) : undefined)
          .orderBy(desc(st.totalXP), asc(st.address)).limit(limit),
      );
    },
    async nfts(owner: string, soulbound?: boolean) {
      const { minter: _m, txHash: _t, ...cols } = getTableColumns(n);
      return chainRead(
        db.select(cols).from(n).where(and(eq(n.owner, owner.toLowerCase() as Hex), soulbound === undefined ? undefined : eq(n.soulbound, soulbound))).orderBy(asc(n.tokenId)),
      );
    },
    async missionCompletedAt(missionIds: string[]): Promise<Map<string, bigint | null>> {
      if (missionIds.length === 0) return new Map();
      const rows = await chainRead(db.select({ id: m.id, completedAt: m.completedAt }).from(m).where(inArray(m.id, missionIds as MissionId[])));
      return new Map(rows.map((row) => [row.id, row.completedAt]));
    },
    async achievementDefinitions() {
      const { definedAt: _d, txHash: _t, ...cols } = getTableColumns(ad);
      return chainRead(db.select(cols).from(ad).orderBy(asc(ad.achievementId)));
    },

    /** Missions `account` completed as performer up to and including journal entry `id`. */
    async completionsUpTo(account: string, id: bigint): Promise<number> {
      const [row] = await chainRead(
        db.select({ n: count() }).from(j).where(and(eq(j.type, "MISSION_COMPLETED"), eq(j.account, account.toLowerCase() as Hex), lte(j.id, id))),
      );
      return row?.n ?? 0;
    },

    // ---- api.users (profile fields)
    async updateProfile(userId: string, f: { displayName?: string; bio?: string; avatar?: string }): Promise<void> {
      await pool.query(
        `UPDATE api.users SET display_name = COALESCE($2, display_name), bio = COALESCE($3, bio), avatar = COALESCE($4, avatar)
          WHERE id = $1`,
        [userId, f.displayName ?? null, f.bio ?? null, f.avatar ?? null],
      );
    },
    /** Links `solana` to the user unless another user holds it; false on conflict. */
    async linkSolana(userId: string, solana: string): Promise<boolean> {
      const res = await pool.query(
        `UPDATE api.users SET solana_address = $2 WHERE id = $1
           AND NOT EXISTS (SELECT 1 FROM api.users WHERE solana_address = $2 AND id <> $1)`,
        [userId, solana],
      );
      return (res.rowCount ?? 0) > 0;
    },

    // ---- api.ratings (comment text, attestation receipt)
    /** Claims (mission, rater); null when that rater already rated the mission. */
    async claimRating(r: { missionId: string; missionOnChainId: string; rater: string; ratee: string; score: number; comment: string; commentHash: string }): Promise<ApiRatingRow | null> {
      const [row] = await db.insert(apiRatings).values(r).onConflictDoNothing({ target: [apiRatings.missionOnChainId, apiRatings.rater] }).returning();
      return row ?? null;
    },
    async completeRating(id: string, v: { easUid: string; txHash: string; signature: string }): Promise<ApiRatingRow> {
      const [row] = await db.update(apiRatings).set({ easUid: v.easUid.toLowerCase(), txHash: v.txHash, signature: v.signature, status: "onchain" })
        .where(eq(apiRatings.id, id)).returning();
      return row!;
    },
    async releaseRating(id: string): Promise<void> {
      await db.delete(apiRatings).where(and(eq(apiRatings.id, id), eq(apiRatings.status, "pending")));
    },
    async apiRating(id: string): Promise<ApiRatingRow | null> {
      const [row] = await db.select().from(apiRatings).where(eq(apiRatings.id, id));
      return row ?? null;
    },

    // ---- achievement mints
    async claimMint(m: { account: string; achievementId: number; cause: string; missionOnChainId: string }): Promise<{ status: string; claimed: boolean }> {
      const ins = await pool.query<{ status: string }>(
        `INSERT INTO api.achievement_mints (account, achievement_id, cause, mission_on_chain_id, status)
         VALUES ($1, $2, $3, $4, 'sending') ON CONFLICT DO NOTHING RETURNING status`,
        [m.account.toLowerCase(), m.achievementId, m.cause, m.missionOnChainId],
      );
      if (ins.rows[0]) return { status: "sending", claimed: true };
      const cur = await pool.query<{ status: string }>(
        `SELECT status FROM api.achievement_mints WHERE account = $1 AND achievement_id = $2`,
        [m.account.toLowerCase(), m.achievementId],
      );
      return { status: cur.rows[0]?.status ?? "sending", claimed: false };
    },
    async markMint(account: string, achievementId: number, status: string, txHash: string | null): Promise<void> {
      await pool.query(
        `UPDATE api.achievement_mints SET status = $3, tx_hash = COALESCE($4, tx_hash), updated_at = now()
          WHERE account = $1 AND achievement_id = $2`,
        [account.toLowerCase(), achievementId, status, txHash],
      );
    },
    async mints(account: string) {
      return (await pool.query<{ achievement_id: number; status: string; cause: string; tx_hash: string | null }>(
        `SELECT achievement_id, status, cause, tx_hash FROM api.achievement_mints WHERE account = $1 ORDER BY achievement_id`,
        [account.toLowerCase()],
      )).rows;
    },

    // ---- builder-score refreshes
    async lastBuilderRefresh(address: string) {
      return (await pool.query<{ score: number | null; refreshed_at: Date }>(
        `SELECT score, refreshed_at FROM api.builder_score_refreshes WHERE address = $1`, [address.toLowerCase()],
      )).rows[0] ?? null;
    },
    async recordBuilderRefresh(address: string, score: number | null, txHash: string | null): Promise<void> {
      await pool.query(
        `INSERT INTO api.builder_score_refreshes (address, score, tx_hash) VALUES ($1, $2, $3)
         ON CONFLICT (address) DO UPDATE SET score = EXCLUDED.score, tx_hash = EXCLUDED.tx_hash, refreshed_at = now()`,
        [address.toLowerCase(), score, txHash],
      );
    },
  };
}
export type ProfileRepository = ReturnType<typeof profileRepository>;
