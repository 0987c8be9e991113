// Profile reads of indexed chain data (user stats, ratings, XP ledger, NFTs, builder scores) and
// the profile area's own tables (rating texts, achievement mints, reactor cursors, builder refreshes).
import type pg from "pg";
import { chainQuery } from "./chain-query.ts";

const q = chainQuery;

export interface UserStatsRow {
  address: string;
  total_earned: string;
  total_spent: string;
  missions_posted: number;
  missions_completed: number;
  disputes_won: number;
  disputes_lost: number;
  rating_count: number;
  rating_sum: number;
  reputation: number;
  total_xp: number;
  level: number;
  builder_score: number | null;
}

export interface ChainRatingRow {
  uid: string;
  mission_on_chain_id: string;
  mission_id: string | null;
  rater: string;
  ratee: string;
  score: number;
  comment: string;
  attester: string;
  time: string;
  counted: boolean;
  rater_role: string | null;
  tx_hash: string;
  /** Joined from api.ratings / api.users when present. */
  api_id: string | null;
  api_comment: string | null;
  api_created_at: Date | null;
  rater_id: string | null;
  rater_name: string | null;
  ratee_id: string | null;
  ratee_name: string | null;
}

export interface ApiRatingRow {
  id: string;
  mission_id: string;
  mission_on_chain_id: string;
  rater: string;
  ratee: string;
  score: number;
  comment: string;
  comment_hash: string;
  signature: string | null;
  eas_uid: string | null;
  tx_hash: string | null;
  status: string;
  created_at: Date;
}

export interface LedgerRow {
  id: string;
  xp_delta: number;
  source: string;
  mission_id: string | null;
  reason: string;
  balance_after: number;
  created_at: string;
}

export interface NftRow {
  token_id: string;
  contract_address: string;
  owner: string;
  achievement_id: string;
  soulbound: boolean;
  mission_on_chain_id: string;
  mission_id: string | null;
  type: string;
  name: string;
  description: string;
  image: string;
  minted_at: string;
}

export function profileRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;
  const ratingSelect = `
    SELECT r.uid, r.mission_on_chain_id::text, r.mission_id, r.rater, r.ratee, r.score, r.comment, r.attester,
           r.time::text, r.counted, r.rater_role, r.tx_hash,
           a.id AS api_id, a.comment AS api_comment, a.created_at AS api_created_at,
           ur.id AS rater_id, ur.display_name AS rater_name, ue.id AS ratee_id, ue.display_name AS ratee_name
      FROM ${s}.ratings r
      LEFT JOIN api.ratings a ON a.eas_uid = r.uid
      LEFT JOIN api.users ur ON ur.evm_address = r.rater
      LEFT JOIN api.users ue ON ue.evm_address = r.ratee`;
  return {
    async userStats(address: string): Promise<UserStatsRow | null> {
      const r = await q<UserStatsRow>(
        pool,
        `SELECT address, total_earned::text, total_spent::text, missions_posted, missions_completed, disputes_won,
                disputes_lost, rating_count, rating_sum, reputation, total_xp, level, builder_score
           FROM ${s}.user_stats WHERE address = $1`,
        [address.toLowerCase()],
      );
      return r.rows[0] ?? null;
    },
    async mission(idOrOnChainId: string) {
      const byUuid = /^[0-9a-f-]{36}$/i.test(idOrOnChainId);
      const r = await q<{ id: string; on_chain_id: string; poster: string; performer: string | null; state: string }>(
        pool,
        `SELECT id, on_chain_id::text, poster, performer, state FROM ${s}.missions WHERE ${byUuid ? "id = $1" : "on_chain_id = $1::numeric"}`,
        [byUuid ? idOrOnChainId.toLowerCase() : idOrOnChainId],
      );
      return r.rows[0] ?? null;
    },
    /** Counted ratings received by `address`, newest first. */
    async ratingsReceived(address: string): Promise<ChainRatingRow[]> {
      return (await q<ChainRatingRow>(pool, `${ratingSelect} WHERE r.ratee = $1 AND r.counted ORDER BY r.block_number DESC, r.uid`, [address.toLowerCase()])).rows;
    },
    async ratingsOfMission(onChainId: string): Promise<ChainRatingRow[]> {
      return (await q<ChainRatingRow>(pool, `${ratingSelect} WHERE r.mission_on_chain_id = $1::numeric AND r.counted ORDER BY r.block_number, r.uid`, [onChainId])).rows;
    },
    async chainRating(uid: string): Promise<ChainRatingRow | null> {
      return (await q<ChainRatingRow>(pool, `${ratingSelect} WHERE r.uid = $1`, [uid.toLowerCase()])).rows[0] ?? null;
    },
    /** Counted ratings received, by score and by the ratee's side. */
    async ratingCounts(address: string) {
      return (
        await q<{ score: number; rater_role: string | null; n: number; sum: number }>(
          pool,
          `SELECT score, rater_role, count(*)::int AS n, sum(score)::int AS sum FROM ${s}.ratings
            WHERE ratee = $1 AND counted GROUP BY score, rater_role`,
          [address.toLowerCase()],
        )
      ).rows;
    },
    async ledger(address: string, limit: number): Promise<LedgerRow[]> {
      return (
        await q<LedgerRow>(
          pool,
          `SELECT id, xp_delta, source, mission_id, reason, balance_after, created_at::text FROM ${s}.xp_ledger
            WHERE "user" = $1 ORDER BY key DESC LIMIT $2`,
          [address.toLowerCase(), limit],
        )
      ).rows;
    },
    async leaderboard(limit: number, buildersOnly: boolean) {
      return (
        await q<{ address: string; total_xp: number; builder_score: number | null; user_id: string | null; display_name: string | null }>(
          pool,
          `SELECT s.address, s.total_xp, s.builder_score, u.id AS user_id, u.display_name
             FROM ${s}.user_stats s LEFT JOIN api.users u ON u.evm_address = s.address
            ${buildersOnly ? "WHERE s.builder_score IS NOT NULL" : ""}
            ORDER BY s.total_xp DESC, s.address LIMIT $1`,
          [limit],
        )
      ).rows;
    },
    async nfts(owner: string, soulbound?: boolean): Promise<NftRow[]> {
      return (
        await q<NftRow>(
          pool,
          `SELECT token_id::text, contract_address, owner, achievement_id::text, soulbound, mission_on_chain_id::text,
                  mission_id, type, name, description, image, minted_at::text
             FROM ${s}.nfts n WHERE owner = $1 ${soulbound === undefined ? "" : "AND soulbound = $2"} ORDER BY n.token_id`,
          soulbound === undefined ? [owner.toLowerCase()] : [owner.toLowerCase(), soulbound],
        )
      ).rows;
    },
    async missionCompletedAt(missionIds: string[]): Promise<Map<string, string | null>> {
      if (missionIds.length === 0) return new Map();
      const r = await q<{ id: string; completed_at: string | null }>(
        pool,
        `SELECT id, completed_at::text FROM ${s}.missions WHERE id = ANY($1)`,
        [missionIds],
      );
      return new Map(r.rows.map((x) => [x.id, x.completed_at]));
    },
    async achievementDefinitions() {
      return (
        await q<{ achievement_id: string; name: string; description: string; image: string; requirements: string; achievement_type: string; xp_reward: number; soulbound: boolean }>(
          pool,
          `SELECT achievement_id::text, name, description, image, requirements, achievement_type, xp_reward, soulbound
             FROM ${s}.achievement_definitions d ORDER BY d.achievement_id`,
        )
      ).rows;
    },

    /** Missions `account` completed as performer up to and including journal entry `id`. */
    async completionsUpTo(account: string, id: bigint): Promise<number> {
      const r = await q<{ n: number }>(
        pool,
        `SELECT count(*)::int AS n FROM ${s}.journal WHERE type = 'MISSION_COMPLETED' AND account = $1 AND id <= $2::numeric`,
        [account.toLowerCase(), id.toString()],
      );
      return r.rows[0]?.n ?? 0;
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
      const res = await pool.query<ApiRatingRow>(
        `INSERT INTO api.ratings (mission_id, mission_on_chain_id, rater, ratee, score, comment, comment_hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT ON CONSTRAINT ratings_mission_rater_unique DO NOTHING RETURNING *`,
        [r.missionId, r.missionOnChainId, r.rater, r.ratee, r.score, r.comment, r.commentHash],
      );
      return res.rows[0] ?? null;
    },
    async completeRating(id: string, v: { easUid: string; txHash: string; signature: string }): Promise<ApiRatingRow> {
      const res = await pool.query<ApiRatingRow>(
        `UPDATE api.ratings SET eas_uid = $2, tx_hash = $3, signature = $4, status = 'onchain' WHERE id = $1 RETURNING *`,
        [id, v.easUid.toLowerCase(), v.txHash, v.signature],
      );
      return res.rows[0]!;
    },
    async releaseRating(id: string): Promise<void> {
      await pool.query(`DELETE FROM api.ratings WHERE id = $1 AND status = 'pending'`, [id]);
    },
    async apiRating(id: string): Promise<ApiRatingRow | null> {
      return (await pool.query<ApiRatingRow>(`SELECT * FROM api.ratings WHERE id = $1`, [id])).rows[0] ?? null;
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
