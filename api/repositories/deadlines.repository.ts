// Keeper work lists: missions and disputes whose deadline may have passed at chain time `now` (unix
// seconds), read from the indexer's views. Candidates only: the keeper re-reads each on-chain first.
import { and, asc, eq, lte, or, type SQL } from "drizzle-orm";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { chainRead } from "./chain-query.ts";
import type { DisputeState } from "../../domain/index.ts";

const BATCH = 50;

export interface DueMission {
  on_chain_id: string;
  state: "Open" | "Accepted" | "Submitted";
}

export interface DueDispute {
  on_chain_id: string;
  state: string;
}

export function deadlinesRepository(db: Db, chain: Pick<ChainTables, "missions" | "disputes">) {
  const { missions: m, disputes: d } = chain;
  const due = (state: DueMission["state"], deadline: typeof m.expiresAt | typeof m.reviewDeadline, now: bigint) =>
    chainRead(
      db.select({ onChainId: m.onChainId, state: m.state }).from(m)
        .where(and(eq(m.state, state), lte(deadline, now))).orderBy(asc(deadline)).limit(BATCH),
    );
  return {
    /** Open/Accepted past expiry (expire), Submitted past the review window (release to the performer). */
    async dueMissions(now: bigint): Promise<DueMission[]> {
      // One list per state, each in deadline order: a backlog of one kind never starves the others.
      const lists = await Promise.all([due("Open", m.expiresAt, now), due("Accepted", m.expiresAt, now), due("Submitted", m.reviewDeadline, now)]);
      return lists.flat().map((r) => ({ on_chain_id: r.onChainId.toString(), state: r.state as DueMission["state"] }));
    },
    /** Investigating past the resolution deadline, Resolved/Appealed past theirs, Pending past the dispute timeout. */
    async dueDisputes(now: bigint, disputeTimeout: bigint): Promise<DueDispute[]> {
      const passed = (state: DisputeState, deadline: SQL | undefined) => and(eq(d.state, state), deadline);
      const rows = await chainRead(
        db.select({ onChainId: d.onChainId, state: d.state }).from(d)
          .where(or(
            passed("Investigating", lte(d.resolutionDeadline, now)),
            passed("Resolved", lte(d.appealDeadline, now)),
            passed("Appealed", lte(d.appealDecisionDeadline, now)),
            passed("Pending", lte(d.createdAt, now - disputeTimeout)),
          ))
          .orderBy(asc(d.onChainId)).limit(BATCH),
      );
      return rows.map((r) => ({ on_chain_id: r.onChainId.toString(), state: r.state }));
    },
  };
}
export type DeadlinesRepository = ReturnType<typeof deadlinesRepository>;
