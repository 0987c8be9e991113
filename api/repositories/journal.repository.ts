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

export function journalRepository(pool: pg.Pool, chainSchema: string) {
  const q = (table: string) => `${quote(chainSchema)}.${quote(table)}`;
  return {
    /**
     * Exclusive upper bound on journal ids that are safe to act on: entries of blocks at or below
     * Ponder's committed checkpoint, and only once Ponder is ready. Null when not ready.
     */
    async safeBound(): Promise<bigint | null> {
      try {
        const [meta, cps] = await Promise.all([
          pool.query(`SELECT value FROM ${q("_ponder_meta")} WHERE key = 'app'`),
          pool.query(`SELECT latest_checkpoint FROM ${q("_ponder_checkpoint")}`),
        ]);
        if (meta.rows[0]?.value?.is_ready !== 1 || cps.rows.length === 0) return null;
        // Ponder's checkpoint: 10 digits of timestamp, 16 of chain id, then 16 of block number.
        const blocks = cps.rows.map((r: { latest_checkpoint: string }) => BigInt(r.latest_checkpoint.slice(26, 42)));
        const min = blocks.reduce((a, b) => (b < a ? b : a));
        return (min + 1n) * BLOCK_FACTOR;
      } catch {
        return null; // views not there yet (indexer starting)
      }
    },
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
    async after(cursor: bigint, bound: bigint, limit: number, types?: readonly string[]): Promise<JournalEntry[]> {
      const params: unknown[] = [cursor.toString(), bound.toString(), limit];
      let filter = "";
      if (types) {
        params.push(types);
        filter = ` AND type = ANY($4)`;
      }
      const { rows } = await pool.query(
        `SELECT id::text, chain_id, block_number::text, block_timestamp::text, tx_hash, log_index, seq, type,
                mission_id, account, payload
           FROM ${q("journal")} WHERE id > $1 AND id < $2${filter} ORDER BY id LIMIT $3`,
        params,
      );
      return rows.map((r) => ({
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
      }));
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
