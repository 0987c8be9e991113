// Governance proposals and their votes (api schema). A vote is written only while its proposal is
// open, in the same statement that checks it, so a vote racing the end cannot land after it.
import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { governanceProposals, governanceVotes } from "../db/governance.schema.ts";

export type ProposalRow = typeof governanceProposals.$inferSelect;
export type VoteRow = typeof governanceVotes.$inferSelect;

export function governanceRepository(db: Db) {
  return {
    async insertProposal(p: { proposer: string; title: string; body: string; choices: string[]; endsAt: Date }): Promise<ProposalRow> {
      const [row] = await db.insert(governanceProposals).values({ ...p, proposer: p.proposer.toLowerCase() }).returning();
      return row!;
    },
    async findProposal(id: string): Promise<ProposalRow | null> {
      const [row] = await db.select().from(governanceProposals).where(eq(governanceProposals.id, id)).limit(1);
      return row ?? null;
    },
    async listProposals(limit: number): Promise<ProposalRow[]> {
      return db.select().from(governanceProposals).orderBy(desc(governanceProposals.createdAt), desc(governanceProposals.id)).limit(limit);
    },
    async votesOf(proposalIds: string[]): Promise<VoteRow[]> {
      if (proposalIds.length === 0) return [];
      return db
        .select()
        .from(governanceVotes)
        .where(inArray(governanceVotes.proposalId, proposalIds))
        .orderBy(asc(governanceVotes.votedAt), asc(governanceVotes.voter));
    },
    /**
     * Inserts or replaces `voter`'s vote if the proposal is still open at `now`. Returns the stored
     * vote and whether it replaced one, or null when the proposal had ended.
     */
    async castVote(v: { proposalId: string; voter: string; choice: string; signature: string; now: Date }): Promise<{ vote: VoteRow; replaced: boolean } | null> {
      const rows = await db.execute<{ proposal_id: string; voter: string; choice: string; signature: string; voted_at: string; replaced: boolean }>(sql`
        INSERT INTO ${governanceVotes} (proposal_id, voter, choice, signature, voted_at)
        SELECT p.id, ${v.voter.toLowerCase()}, ${v.choice}, ${v.signature}, ${v.now.toISOString()}::timestamptz
        FROM ${governanceProposals} p
        WHERE p.id = ${v.proposalId} AND p.ends_at > ${v.now.toISOString()}::timestamptz
        ON CONFLICT (proposal_id, voter) DO UPDATE
          SET choice = excluded.choice, signature = excluded.signature, voted_at = excluded.voted_at
        RETURNING proposal_id, voter, choice, signature, voted_at, (xmax::text <> '0') AS replaced`);
      const r = rows.rows[0];
      if (!r) return null;
      return {
        vote: { proposalId: r.proposal_id, voter: r.voter, choice: r.choice, signature: r.signature, votedAt: new Date(r.voted_at) },
        replaced: r.replaced,
      };
    },
  };
}
export type GovernanceRepository = ReturnType<typeof governanceRepository>;
