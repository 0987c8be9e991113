// Rating claims left `pending` (api.ratings): a claim is taken before its attestation is sent, so a
// process that died in between leaves one behind. The sweeper finishes it from the chain's record
// or releases it; both only from `pending`, so a claim ends exactly once.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { ratings as apiRatings } from "../db/profile.schema.ts";
import type { ApiRatingRow } from "./profile.repository.ts";
import { chainRead } from "./chain-query.ts";

export type AttestedRating = Awaited<ReturnType<RatingClaimsRepository["attested"]>>[number];

export function ratingClaimsRepository(db: Db, chain: Pick<ChainTables, "ratings">) {
  const { ratings: r } = chain;
  const pending = (id: string) => and(eq(apiRatings.id, id), eq(apiRatings.status, "pending"));
  return {
    async stale(olderThanSeconds: number, limit = 50): Promise<ApiRatingRow[]> {
      return db.select().from(apiRatings)
        .where(and(eq(apiRatings.status, "pending"), lt(apiRatings.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`)))
        .orderBy(asc(apiRatings.createdAt)).limit(limit);
    },
    /** The indexed attestations of `rater` on a mission (addresses are stored lowercase). */
    async attested(missionOnChainId: string, rater: string) {
      return chainRead(
        db.select({ uid: r.uid, txHash: r.txHash, score: r.score, comment: r.comment, counted: r.counted }).from(r)
          .where(and(eq(r.missionOnChainId, BigInt(missionOnChainId)), eq(r.rater, rater as `0x${string}`)))
          .orderBy(asc(r.blockNumber), asc(r.uid)),
      );
    },
    async finish(id: string, v: { easUid: string; txHash: string; signature: string | null }): Promise<boolean> {
      const rows = await db.update(apiRatings).set({ easUid: v.easUid.toLowerCase(), txHash: v.txHash, signature: v.signature, status: "onchain" })
        .where(pending(id)).returning({ id: apiRatings.id });
      return rows.length > 0;
    },
    async release(id: string): Promise<boolean> {
      const rows = await db.delete(apiRatings).where(pending(id)).returning({ id: apiRatings.id });
      return rows.length > 0;
    },
  };
}
export type RatingClaimsRepository = ReturnType<typeof ratingClaimsRepository>;
