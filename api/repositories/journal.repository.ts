// Reads the indexer's journal (views schema) and the reactors' cursors (schema "api"). Only DB code.
import type pg from "pg";

export interface JournalEntry {
  /** block × 10^9 + logIndex × 10^3 + seq: strictly increasing in chain order, deterministic. */
  id: bigint;
  chainId: number;
  blockNumber: bigint;
  blockTimestamp: bigint;
  txHash: string;
  logIndex: number;
  seq: number;
  type: string;
  missionId: string | null;
  account: string | null;
  payload: Record<string, unknown>;
}

const BLOCK_FACTOR = 1_000_000_000n;
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A journal row (ids and numbers as text, as the queries select them) as an entry. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toEntry(r: any): JournalEntry {
  return {
    id: BigInt(r.id),
    chainId: Number(r.chain_id),
    blockNumber: BigInt(r.block_number),
    blockTimestamp: BigInt(r.block_timestamp),
    txHash: r.tx_hash,
    logIndex: Number(r.log_index),
    seq: Number(r.seq),
    type: r.type,
    missionId: r.mission_id,
    account: r.account,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) ?? {},
  };
}

export function journalRepository(pool: pg.Pool, chainSchema: string) {
  const q = (table: string) => `${quote(chainSchema)}.${quote(table)}`;
  /** Null when Ponder is not ready; throws when its views are not there yet. */
  async function safeBoundOn(db: Pick<pg.PoolClient, "query">): Promise<bigint | null> {
    const meta = await db.query(`SELECT value FROM ${q("_ponder_meta")} WHERE key = 'app'`);
      const cps = await db.query(`SELECT latest_checkpoint FROM ${q("_ponder_checkpoint")}`);
      if (meta.rows[0]?.value?.is_ready !== 1 || cps.rows.length === 0) return null;
      // Ponder's checkpoint: 10 digits of timestamp, 16 of chain id, then 16 of block number.
      const blocks = cps.rows.map((r: { latest_checkpoint: string }) => BigInt(r.latest_checkpoint.slice(26, 42)));
      const min = blocks.reduce((a, b) => (b < a ? b : a));
    return (min + 1n) * BLOCK_FACTOR;
  }
  return {
    /**
     * The chain's clock as far as it is indexed: the block timestamp in Ponder's checkpoint (its
     * first 10 digits), or null before the indexer wrote one. Deadlines are chain time, and a test
     * chain may run days ahead of the wall clock.
     */
    async indexedTime(): Promise<number | null> {
      try {
        const cps = await pool.query(`SELECT latest_checkpoint FROM ${q("_ponder_checkpoint")}`);
        if (cps.rows.length === 0) return null;
        return Math.min(...cps.rows.map((r: { latest_checkpoint: string }) => Number(r.latest_checkpoint.slice(0, 10))));
      } catch {
        return null;
      }
    },
    /**
     * One consistent read (a single REPEATABLE READ snapshot) for a reactor: the safe bound, the next
     * `limit` entries after `cursor` below it, and `settledThrough`, the highest journal id of ANY
     * type that exists below the bound after the cursor. A type-filtered reactor may skip its cursor
     * to `settledThrough` after a short batch, never to the bound itself: after a kill, Ponder's
     * crash recovery deletes and re-inserts the newest rows, and a checkpoint read without its rows
     * must not let a cursor jump over entries that are about to come back (issue 9 chaos test).
     */
    async readBatch(
      cursor: bigint,
      limit: number,
      types?: readonly string[],
    ): Promise<{ entries: JournalEntry[]; settledThrough: bigint | null; bound: bigint } | null> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const bound = await safeBoundOn(client);
        if (bound === null) return null;
        const params: unknown[] = [cursor.toString(), bound.toString(), limit];
        let filter = "";
        if (types) {
          params.push(types);
          filter = ` AND j.type = ANY($4)`;
        }
        // ORDER BY j.id, qualified: a bare "id" would name the output column id::text and sort as
        // text, so a batch spanning a digit boundary (block 99 -> 100) came back out of order and
        // the cursor jumped over entries (issue 9, indexer chaos: 456 notifications lost).
        const { rows } = await client.query(
          `SELECT j.id::text, j.chain_id, j.block_number::text, j.block_timestamp::text, j.tx_hash, j.log_index, j.seq,
                  j.type, j.mission_id, j.account, j.payload
             FROM ${q("journal")} j WHERE j.id > $1 AND j.id < $2${filter} ORDER BY j.id LIMIT $3`,
          params,
        );
        const top = await client.query(`SELECT max(id)::text AS id FROM ${q("journal")} WHERE id > $1 AND id < $2`, [
          cursor.toString(),
          bound.toString(),
        ]);
        return { entries: rows.map(toEntry), settledThrough: top.rows[0]?.id ? BigInt(top.rows[0].id) : null, bound };
      } catch {
        return null; // views not there yet (indexer starting), or the indexer is re-creating them
      } finally {
        await client.query("COMMIT").catch(() => {});
        client.release();
      }
    },
    async cursor(reactor: string): Promise<bigint> {
      const { rows } = await pool.query(
        `INSERT INTO api.reactor_cursors (reactor) VALUES ($1)
           ON CONFLICT (reactor) DO UPDATE SET reactor = EXCLUDED.reactor RETURNING last_id::text`,
        [reactor],
      );
      return BigInt(rows[0].last_id);
    },
    /** Only moves forward. */
    async advance(reactor: string, lastId: bigint): Promise<void> {
      await pool.query(
        `UPDATE api.reactor_cursors SET last_id = GREATEST(last_id, $2::bigint), updated_at = now() WHERE reactor = $1`,
        [reactor, lastId.toString()],
      );
    },
  };
}
export type JournalRepository = ReturnType<typeof journalRepository>;
