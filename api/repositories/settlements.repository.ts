// A mission's money in trouble as the indexer sees it (Ponder's views schema): the open settlement
// offers, the state of the mission's dispute, and the payments made in parts or by agreement.
import type pg from "pg";
import type { DisputeState } from "../../domain/index.ts";
import { chainQuery } from "./chain-query.ts";

export interface OfferRow {
  by_poster: boolean;
  party: string;
  performer_amount: string;
  poster_amount: string;
  created_at: string;
  tx_hash: string;
}

export interface PaymentRow {
  kind: "release" | "refund" | "settlement";
  performer_gross: string;
  poster_amount: string;
  performer_amount: string;
  protocol_amount: string;
  guild_amount: string;
  labs_amount: string;
  pool_amount: string;
  remaining: string;
  dispute_id: string | null;
}

export function settlementsRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;
  return {
    /** The mission's open offers, the poster's first. */
    async offers(missionId: string): Promise<OfferRow[]> {
      const res = await chainQuery<OfferRow>(
        pool,
        `SELECT by_poster, party, performer_amount::text, poster_amount::text, created_at::text, tx_hash
           FROM ${s}.settlement_offers WHERE mission_id = $1 ORDER BY by_poster DESC`,
        [missionId],
      );
      return res.rows;
    },

    /** The mission's current (latest) dispute, if it has one. */
    async dispute(missionId: string): Promise<{ id: string; state: DisputeState } | null> {
      const res = await chainQuery<{ id: string; state: DisputeState }>(
        pool,
        `SELECT d.id, d.state FROM ${s}.missions m JOIN ${s}.disputes d ON d.id = m.dispute_id WHERE m.id = $1`,
        [missionId],
      );
      return res.rows[0] ?? null;
    },

    /** The payment one transaction made for the mission (its release, refund or settlement). */
    async payment(missionId: string, txHash: string): Promise<PaymentRow | null> {
      const res = await chainQuery<PaymentRow>(
        pool,
        `SELECT kind, performer_gross::text, poster_amount::text, performer_amount::text, protocol_amount::text,
                guild_amount::text, labs_amount::text, pool_amount::text, remaining::text, dispute_id
           FROM ${s}.mission_payments WHERE mission_id = $1 AND tx_hash = $2 ORDER BY id DESC LIMIT 1`,
        [missionId, txHash.toLowerCase()],
      );
      return res.rows[0] ?? null;
    },
  };
}
export type SettlementsRepository = ReturnType<typeof settlementsRepository>;
