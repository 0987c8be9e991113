// Rating claims left `pending` (api.ratings): a claim is taken before its attestation is sent, so a
// process that died in between leaves one behind. The sweeper finishes it from the chain's record
// or releases it; both only from `pending`, so a claim ends exactly once.
import { and, asc, eq } from "drizzle-orm";
import type pg from "pg";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import type { ApiRatingRow } from "./profile.repository.ts";
import { chainRead } from "./chain-query.ts";

export interface AttestedRating {
  uid: string;
  tx_hash: string;
  score: number;
  comment: string;
  counted: boolean;
}

export function ratingClaimsRepository(pool: pg.Pool, db: Db, chain: Pick<ChainTables, "ratings">) {
  const { ratings: r } = chain;
  return {
    async stale(olderThanSeconds: number, limit = 50): Promise<ApiRatingRow[]> {
      const res = await pool.query<ApiRatingRow>(
        `SELECT * FROM api.ratings WHERE status = 'pending' AND created_at < now() - make_interval(secs => $1)
          ORDER BY created_at LIMIT $2`,
        [olderThanSeconds, limit],
      );
      return res.rows;
    },
    /** The indexed attestations of `rater` on a mission (addresses are stored lowercase). */
    async attested(missionOnChainId: string, rater: string): Promise<AttestedRating[]> {
      return chainRead(
        db.select({ uid: r.uid, tx_hash: r.txHash, score: r.score, comment: r.comment, counted: r.counted }).from(r)
          .where(and(eq(r.missionOnChainId, BigInt(missionOnChainId)), eq(r.rater, rater as `0x${string}`)))
          .orderBy(asc(r.blockNumber), asc(r.uid)),
      );
    },
    async finish(id: string, v: { easUid: string; txHash: string; signature: string | null }): Promise<boolean> {
      const res = await pool.query(
        `UPDATE api.ratings SET eas_uid = $2, tx_hash = $3, signature = $4, status = 'onchain' WHERE id = $1 AND status = 'pending'`,
        [id, v.easUid.toLowerCase(), v.txHash, v.signature],
      );
      return (res.rowCount ?? 0) > 0;
    },
    async release(id: string): Promise<boolean> {
      const res = await pool.query(`DELETE FROM api.ratings WHERE id = $1 AND status = 'pending'`, [id]);
      return (res.rowCount ?? 0) > 0;
    },
  };
}
export type RatingClaimsRepository = ReturnType<typeof ratingClaimsRepository>;
