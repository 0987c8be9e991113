// Disputes as the indexer sees them (Ponder's views schema `chain.disputes`, through the typed Ponder
// tables: rows are the schema's, bigint columns as bigint), joined with the mission, its off-chain
// details and the parties' profiles; plus this area's off-chain tables.
import { and, desc, eq, getTableColumns, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type pg from "pg";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { disputeEvidence, disputeResolutions } from "../db/disputes.schema.ts";
import { missionDetails, users } from "../db/schema.ts";
import type { DisputeOutcome, DisputeState } from "../../domain/index.ts";
import { chainRead } from "./chain-query.ts";
import { preparedName } from "./prepared-name.ts";

/** A dispute's row, its mission's reward and details, and the API accounts of its parties (null: none). */
export type DisputeRow = Awaited<ReturnType<DisputesRepository["find"]>>[number];
export type DisputeStats = Awaited<ReturnType<DisputesRepository["stats"]>>;

export type DisputeRole = "poster" | "performer" | "resolver" | "initiator";
export interface DisputeFilter {
  state?: string;
  outcome?: string;
  role?: DisputeRole;
  account?: string; // lowercase address the role is relative to
  missionId?: string;
  resolver?: string;
}

export function disputesRepository(pool: pg.Pool, db: Db, chain: Pick<ChainTables, "disputes" | "missions" | "userStats">, chainSchema: string) {
  const { disputes: d, missions: m, userStats: st } = chain;
  const md = missionDetails;
  const [p, f, i, r] = [alias(users, "p"), alias(users, "f"), alias(users, "i"), alias(users, "r")];
  const select = () =>
    db.select({
      ...getTableColumns(d), reward: m.reward, title: md.title, category: md.category,
      posterUser: { id: p.id, name: p.displayName }, performerUser: { id: f.id, name: f.displayName },
      initiatorUser: { id: i.id, name: i.displayName }, resolverUser: { id: r.id, name: r.displayName },
    })
      .from(d)
      .innerJoin(m, eq(m.id, d.missionId))
      .leftJoin(md, and(eq(md.detailsHash, m.detailsHash), eq(md.onChainId, sql`${m.onChainId}::text`), eq(md.escrowAddress, m.escrowAddress)))
      .leftJoin(p, eq(p.evmAddress, d.poster))
      .leftJoin(f, eq(f.evmAddress, d.performer))
      .leftJoin(i, eq(i.evmAddress, d.initiator))
      .leftJoin(r, eq(r.evmAddress, d.resolver));
  const byIdQ = select().where(eq(d.id, sql.placeholder("id"))).prepare(preparedName("dispute_by_id", chainSchema));
  const count = (cond: SQL | undefined) => sql<number>`count(*) FILTER (WHERE ${cond})::int`.mapWith(Number);

  return {
    async find(filter: DisputeFilter, limit = 200) {
      const where: (SQL | undefined)[] = [];
      if (filter.state) where.push(eq(d.state, filter.state as DisputeState));
      if (filter.outcome) where.push(eq(d.outcome, filter.outcome as DisputeOutcome));
      if (filter.missionId) where.push(sql`${d.missionId} = ${filter.missionId}`);
      if (filter.resolver) where.push(eq(d.resolver, filter.resolver.toLowerCase() as `0x${string}`));
      if (filter.account) {
        const a = filter.account.toLowerCase() as `0x${string}`;
        if (filter.role) where.push(eq(d[filter.role], a));
        else where.push(or(eq(d.poster, a), eq(d.performer, a), eq(d.resolver, a), eq(d.initiator, a)));
      }
      return chainRead(select().where(and(...where)).orderBy(desc(d.createdAt), desc(d.onChainId)).limit(limit));
    },
    async findById(id: string) {
      const [row] = await chainRead(byIdQ.execute({ id }));
      return row ?? null;
    },
    async stats(account: string) {
      const a = account.toLowerCase() as `0x${string}`;
      const won = or(and(eq(d.outcome, "PosterWins"), eq(d.poster, a)), and(eq(d.outcome, "PerformerWins"), eq(d.performer, a)));
      const lost = or(and(eq(d.outcome, "PosterWins"), eq(d.performer, a)), and(eq(d.outcome, "PerformerWins"), eq(d.poster, a)));
      const finalized = eq(d.state, "Finalized");
      const [row] = await chainRead(
        db.select({
          poster: count(eq(d.poster, a)),
          performer: count(eq(d.performer, a)),
          resolver: count(eq(d.resolver, a)),
          initiator: count(eq(d.initiator, a)),
          wins: count(and(finalized, won)),
          losses: count(and(finalized, lost)),
          splits: count(and(finalized, eq(d.outcome, "Split"), or(eq(d.poster, a), eq(d.performer, a)))),
        }).from(d),
      );
      return row!;
    },
    async userLevel(account: string): Promise<number> {
      const [row] = await chainRead(db.select({ level: st.level }).from(st).where(eq(st.address, account.toLowerCase() as `0x${string}`)));
      return row?.level ?? 1;
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

export type DisputesRepository = ReturnType<typeof disputesRepository>;
