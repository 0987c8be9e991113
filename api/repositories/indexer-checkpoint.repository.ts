// Ponder's checkpoint as the API's read-your-writes wait sees it: the block the indexer has committed
// (its _ponder_checkpoint view in the chain schema) and the NOTIFY Ponder sends when it commits one.
// Ponder 0.16 puts a statement trigger on its checkpoint table when it runs with --views-schema: every
// indexed block's transaction updates the table and, at its commit, notifies "<views schema>_live_query"
// (ponder/dist/esm/database/actions.js createViews). Listening to it wakes a waiting write at the
// commit, instead of up to a poll interval later.
import type pg from "pg";
import { listen, type Listening } from "../db/listen.ts";

export interface CheckpointSource {
  /** The chain's indexed block (the checkpoint of `chainId`, else the lowest), or null before the first. */
  block(): Promise<bigint | null>;
  /** Calls `onNotify` at each commit of an indexed block; `onLost` once if the connection goes. */
  listen(onNotify: () => void, onLost: (err?: unknown) => void): Promise<Listening>;
}

/** Ponder's checkpoint string: 10 digits of timestamp, 16 of chain id, then 16 of block number. */
export const checkpointChainId = (cp: string): number => Number(cp.slice(10, 26));
export const checkpointBlockNumber = (cp: string): bigint => BigInt(cp.slice(26, 42));

/** The chain's indexed block from Ponder's checkpoint rows (the row of `chainId`, else the lowest), null without rows. */
export function checkpointBlockOf(rows: readonly { latest_checkpoint: string }[], chainId: number): bigint | null {
  if (!rows.length) return null;
  const own = rows.find((r) => checkpointChainId(r.latest_checkpoint) === chainId);
  return (own ? [own] : rows).map((r) => checkpointBlockNumber(r.latest_checkpoint)).reduce((a, b) => (b < a ? b : a));
}

/** The statement reading the checkpoint rows of the views schema `chainSchema`. */
export const checkpointSql = (chainSchema: string) => `SELECT latest_checkpoint FROM "${chainSchema.replace(/"/g, '""')}"."_ponder_checkpoint"`;

export function indexerCheckpointRepository(pool: pg.Pool, chainSchema: string, chainId: number): CheckpointSource {
  const sql = checkpointSql(chainSchema);
  return {
    async block() {
      // A checked-out client released without the error: before Ponder's first start the view is
      // missing, and pool.query() would drop the connection over that (journal.repository.ts).
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        const { rows } = await client.query<{ latest_checkpoint: string }>(sql);
        return checkpointBlockOf(rows, chainId);
      } catch (err) {
        if (!(err as { code?: string }).code) broken = err as Error;
        throw err;
      } finally {
        client.release(broken);
      }
    },
    listen: (onNotify, onLost) => listen(pool, `${chainSchema}_live_query`, () => onNotify(), onLost),
  };
}
