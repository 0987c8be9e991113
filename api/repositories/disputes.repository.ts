// Disputes as the indexer sees them (Ponder's views schema `chain.disputes`), joined with the
// mission, its off-chain details and the parties' profiles; plus this area's off-chain tables.
import { and, desc, eq } from "drizzle-orm";
import type pg from "pg";
import type { Db } from "../db/client.ts";
import { disputeEvidence, disputeResolutions } from "../db/disputes.schema.ts";
import type { DisputeOutcome, DISPUTE_STATES, MissionState } from "../../domain/index.ts";
import { chainQuery } from "./chain-query.ts";

const q = chainQuery;

export interface DisputeRow {
  id: string;
  on_chain_id: string;
  escrow_address: string;
  mission_id: string;
  mission_on_chain_id: string;
  poster: string;
  performer: string;
  initiator: string;
  resolver: string | null;
  /** The indexer writes a row on DisputeOpened, so the contract's "None" never occurs. */
  state: Exclude<(typeof DISPUTE_STATES)[number], "None">;
  outcome: DisputeOutcome;
  split_percentage: number | null;
  ddr_amount: string;
  lpp_amount: string;
  poster_evidence_hash: string | null;
  performer_evidence_hash: string | null;
  resolution_hash: string | null;
  resolution_deadline: string | null;
  resolved_at: string | null;
  appeal_deadline: string | null;
  appellant: string | null;
  appeal_decision_deadline: string | null;
  appeal_overturned: boolean | null;
  finalized_at: string | null;
  by_default: boolean | null;
  mission_state: MissionState | null;
  payout_poster: string | null;
  payout_performer: string | null;
  payout_protocol: string | null;
  payout_guild: string | null;
  payout_labs: string | null;
  payout_resolver: string | null;
  payout_pool: string | null;
  /** Finalized by an accepted settlement offer (outcome Split, splitPercentage derived). */
  settled_by_agreement: boolean | null;
  resolver_pool_after: string | null;
  created_at: string;
  timeout_at: string | null;
  reward: string;
  title: string | null;
  category: string | null;
  names: Record<string, { id: string; name: string } | null>;
}

export type DisputeRole = "poster" | "performer" | "resolver" | "initiator";
export interface DisputeFilter {
  state?: string;
  outcome?: string;
  role?: DisputeRole;
  account?: string; // lowercase address the role is relative to
  missionId?: string;
  resolver?: string;
}

export function disputesRepository(pool: pg.Pool, db: Db, chainSchema: string) {
  const s = `"${chainSchema}"`;
  const select = `
    SELECT d.id, d.on_chain_id::text, d.escrow_address, d.mission_id, d.mission_on_chain_id::text,
           d.poster, d.performer, d.initiator, d.resolver, d.state, d.outcome, d.split_percentage,
           d.ddr_amount::text, d.lpp_amount::text, d.poster_evidence_hash, d.performer_evidence_hash,
           d.resolution_hash, d.resolution_deadline::text, d.resolved_at::text, d.appeal_deadline::text,
           d.appellant, d.appeal_decision_deadline::text, d.appeal_overturned, d.finalized_at::text,
           d.by_default, d.mission_state, d.payout_poster::text, d.payout_performer::text,
           d.payout_protocol::text, d.payout_guild::text, d.payout_labs::text, d.payout_resolver::text,
           d.payout_pool::text, d.settled_by_agreement, d.resolver_pool_after::text,
           d.created_at::text, m.reward::text, md.title, md.category,
           json_build_object('poster', p.u, 'performer', f.u, 'initiator', i.u, 'resolver', r.u) AS names
      FROM ${s}.disputes d
      JOIN ${s}.missions m ON m.id = d.mission_id
      LEFT JOIN api.mission_details md ON md.details_hash = m.details_hash AND md.on_chain_id = m.on_chain_id::text AND md.escrow_address = m.escrow_address
      LEFT JOIN LATERAL (${userSub("d.poster")}) p ON true
      LEFT JOIN LATERAL (${userSub("d.performer")}) f ON true
      LEFT JOIN LATERAL (${userSub("d.initiator")}) i ON true
      LEFT JOIN LATERAL (${userSub("d.resolver")}) r ON true`;

  return {
    async find(filter: DisputeFilter, limit = 200): Promise<DisputeRow[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (clause: string, value: unknown) => {
        params.push(value);
        where.push(clause.replaceAll("?", `$${params.length}`));
      };
      if (filter.state) add("d.state = ?", filter.state);
      if (filter.outcome) add("d.outcome = ?", filter.outcome);
      if (filter.missionId) add("d.mission_id = ?", filter.missionId);
      if (filter.resolver) add("d.resolver = ?", filter.resolver.toLowerCase());
      if (filter.account) {
        const a = filter.account.toLowerCase();
        if (filter.role) add(`d.${filter.role} = ?`, a);
        else add("(d.poster = ? OR d.performer = ? OR d.resolver = ? OR d.initiator = ?)", a);
      }
      const w = where.length ? `WHERE ${where.join(" AND ")}` : "";
      const res = await q<DisputeRow>(pool, `${select} ${w} ORDER BY d.created_at DESC, d.on_chain_id DESC LIMIT ${limit}`, params);
      return res.rows;
    },
    async findById(id: string): Promise<DisputeRow | null> {
      const res = await q<DisputeRow>(pool, `${select} WHERE d.id = $1`, [id]);
      return res.rows[0] ?? null;
    },
    async stats(account: string) {
      const res = await q<Record<string, string>>(pool,
        `SELECT count(*) FILTER (WHERE poster = $1)::text AS poster,
                count(*) FILTER (WHERE performer = $1)::text AS performer,
                count(*) FILTER (WHERE resolver = $1)::text AS resolver,
                count(*) FILTER (WHERE initiator = $1)::text AS initiator,
                count(*) FILTER (WHERE state = 'Finalized' AND ((outcome = 'PosterWins' AND poster = $1)
                                  OR (outcome = 'PerformerWins' AND performer = $1)))::text AS wins,
                count(*) FILTER (WHERE state = 'Finalized' AND ((outcome = 'PosterWins' AND performer = $1)
                                  OR (outcome = 'PerformerWins' AND poster = $1)))::text AS losses,
                count(*) FILTER (WHERE state = 'Finalized' AND outcome = 'Split'
                                  AND (poster = $1 OR performer = $1))::text AS splits
           FROM ${s}.disputes`,
        [account.toLowerCase()],
      );
      return res.rows[0]!;
    },
    async userLevel(account: string): Promise<number> {
      const res = await q<{ level: number }>(pool, `SELECT level FROM ${s}.user_stats WHERE address = $1`, [
        account.toLowerCase(),
      ]);
      return res.rows[0]?.level ?? 1;
    },
    async insertEvidence(row: typeof disputeEvidence.$inferInsert) {
      await db.insert(disputeEvidence).values(row);
    },
    async findEvidence(disputeOnChainId: string, side: string, hash: string) {
      const [row] = await db
        .select()
        .from(disputeEvidence)
        .where(and(eq(disputeEvidence.disputeOnChainId, disputeOnChainId), eq(disputeEvidence.side, side), eq(disputeEvidence.evidenceHash, hash)))
        .orderBy(desc(disputeEvidence.createdAt))
        .limit(1);
      return row ?? null;
    },
    /**
     * Removes this side's evidence rows other than `keep` (a superseded upload) or only those of
     * `drop` (a failed one); returns the removed hashes that no other dispute side's row references,
     * whose files may go.
     */
    async dropEvidence(disputeOnChainId: string, side: string, which: { keep: string } | { drop: string }): Promise<string[]> {
      const [op, hash] = "keep" in which ? ["<>", which.keep] : ["=", which.drop];
      const res = await pool.query<{ evidence_hash: string }>(
        `WITH gone AS (
           DELETE FROM api.dispute_evidence WHERE dispute_on_chain_id = $1 AND side = $2 AND evidence_hash ${op} $3
           RETURNING evidence_hash)
         SELECT DISTINCT g.evidence_hash FROM gone g
          WHERE NOT EXISTS (SELECT 1 FROM api.dispute_evidence e
                             WHERE e.evidence_hash = g.evidence_hash AND NOT (e.dispute_on_chain_id = $1 AND e.side = $2))`,
        [disputeOnChainId, side, hash],
      );
      return res.rows.map((r) => r.evidence_hash);
    },
    async insertResolution(row: typeof disputeResolutions.$inferInsert) {
      await db.insert(disputeResolutions).values(row).onConflictDoNothing();
    },
  };
}

function userSub(col: string) {
  return `SELECT json_build_object('id', u.id, 'name', u.display_name) AS u FROM api.users u WHERE u.evm_address = ${col}`;
}
export type DisputesRepository = ReturnType<typeof disputesRepository>;
