// Reads the indexer's journal (views schema) and the reactors' cursors (schema "api"). Only DB code.
// The reactors' batch is one REPEATABLE READ snapshot of several statements on one connection, in SQL
// (the tx offset's correlated subquery, the fingerprints' md5 of string_agg); its rows are typed from
// the schemas: the journal's columns under their schema names (ChainRow), Ponder's bookkeeping tables
// from api/db/ponder-meta.ts. The simple reads go through drizzle over the typed journal table.
import { and, asc, gt, inArray, isNotNull, lte, max } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import type { JournalEntry, JournalType } from "../../domain/index.ts";
import { chainTables } from "../db/chain.ts";
import type { PonderCheckpointRow, PonderMetaRow } from "../db/ponder-meta.ts";
import type { ChainRow } from "./discovery-rows.ts";

export type { JournalEntry };

/** The event's identity across reorgs: chain id, tx hash, the log's offset in its tx, seq. */
export const eventKey = (e: Pick<JournalEntry, "chainId" | "txHash" | "txLogOffset" | "seq">) =>
  `${e.chainId}:${e.txHash.toLowerCase()}:${e.txLogOffset ?? 0}:${e.seq}`;

/**
 * The columns toEntry reads, from journal alias `j` of table `table`; the tx offset looks only at
 * the same block's id range (primary key), so it costs one index range scan per row.
 */
export const journalColumns = (table: string) =>
  `j.id, j.chain_id AS "chainId", j.block_number AS "blockNumber", j.block_timestamp AS "blockTimestamp", j.tx_hash AS "txHash",
   j.log_index AS "logIndex", j.seq, j.type, j.mission_id AS "missionId", j.account, j.payload,
   j.log_index - (SELECT min(k.log_index) FROM ${table} k
                   WHERE k.id >= j.block_number * ${BLOCK_FACTOR_SQL} AND k.id < (j.block_number + 1) * ${BLOCK_FACTOR_SQL}
                     AND k.tx_hash = j.tx_hash) AS "txLogOffset"`;

/** A row of journalColumns: the journal's columns as raw SQL returns them, and the tx offset. */
export type JournalRow = ChainRow<"journal"> & { txLogOffset: number | null };

const BLOCK_FACTOR = 1_000_000_000n;
const BLOCK_FACTOR_SQL = "1000000000";
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** A journal row (numeric columns as text, as pg returns them) as an entry. */
export function toEntry(r: JournalRow): JournalEntry {
  // The indexer wrote the payload for this type (domain/journal-events.ts): trusted, not re-parsed.
  return {
    id: BigInt(r.id),
    chainId: Number(r.chainId),
    blockNumber: BigInt(r.blockNumber),
    blockTimestamp: BigInt(r.blockTimestamp),
    txHash: r.txHash,
    logIndex: Number(r.logIndex),
    seq: Number(r.seq),
    type: r.type,
    missionId: r.missionId,
    account: r.account,
    payload: (typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload) ?? {},
    txLogOffset: Number(r.txLogOffset ?? 0),
  } as JournalEntry;
}

export function journalRepository(pool: pg.Pool, chainSchema: string) {
  const q = (table: string) => `${quote(chainSchema)}.${quote(table)}`;
  const db = drizzle(pool);
  const { journal: j } = chainTables(chainSchema);
  /** Null when Ponder is not ready; throws when its views are not there yet. */
  async function safeBoundOn(c: Pick<pg.PoolClient, "query">): Promise<bigint | null> {
    const meta = await c.query<Pick<PonderMetaRow, "value">>(`SELECT value FROM ${q("_ponder_meta")} WHERE key = 'app'`);
    const cps = await c.query<Pick<PonderCheckpointRow, "latestCheckpoint">>(`SELECT latest_checkpoint AS "latestCheckpoint" FROM ${q("_ponder_checkpoint")}`);
    if (meta.rows[0]?.value?.is_ready !== 1 || cps.rows.length === 0) return null;
    // Ponder's checkpoint: 10 digits of timestamp, 16 of chain id, then 16 of block number.
    const blocks = cps.rows.map((r) => BigInt(r.latestCheckpoint.slice(26, 42)));
    const min = blocks.reduce((a, b) => (b < a ? b : a));
    return (min + 1n) * BLOCK_FACTOR;
  }
  /**
   * md5 of (id, tx hash) of every journal row per block in [lo, hi] (blocks without rows are absent);
   * with `skipTo`, the blocks between lo + the cursor's window and skipTo are left out (a long jump).
   */
  async function fingerprintsOn(c: Pick<pg.PoolClient, "query">, lo: bigint, hi: bigint, skipTo: bigint | null): Promise<Map<bigint, string>> {
    const ranges: [bigint, bigint][] = skipTo === null ? [[lo, hi]] : [[lo, lo + (hi - skipTo)], [skipTo, hi]];
    const out = new Map<bigint, string>();
    for (const [a, b] of ranges) {
      // Computed per block (no table column): typed here.
      const { rows } = await c.query<{ block: string; fp: string }>(
        `SELECT floor(id / ${BLOCK_FACTOR_SQL})::bigint::text AS block, md5(string_agg(id::text || tx_hash, ',' ORDER BY id)) AS fp
           FROM ${q("journal")} WHERE id >= $1 AND id < $2 GROUP BY 1`,
        [(a * BLOCK_FACTOR).toString(), ((b + 1n) * BLOCK_FACTOR).toString()],
      );
      for (const r of rows) out.set(BigInt(r.block), r.fp);
    }
    return out;
  }
  return {
    /**
     * The chain's clock as far as it is indexed: the block timestamp in Ponder's checkpoint (its
     * first 10 digits), or null before the indexer wrote one. Deadlines are chain time, and a test
     * chain may run days ahead of the wall clock.
     */
    async indexedTime(): Promise<number | null> {
      // A checked-out client, released without the error: before Ponder's first ready its views do not
      // exist, and pool.query() would close the connection over that error (pg-pool drops a client
      // released with one), so every read (once a second, discovery's clock) opened a new connection:
      // ~12 ms of one core, and the request that met it waited (bench B2: p99 21 -> 11 ms).
      // A connection-level failure (no SQLSTATE) still drops the client.
      const client = await pool.connect().catch(() => null);
      if (!client) return null;
      let broken: Error | undefined;
      try {
        const cps = await client.query<Pick<PonderCheckpointRow, "latestCheckpoint">>(`SELECT latest_checkpoint AS "latestCheckpoint" FROM ${q("_ponder_checkpoint")}`);
        if (cps.rows.length === 0) return null;
        return Math.min(...cps.rows.map((r) => Number(r.latestCheckpoint.slice(0, 10))));
      } catch (err) {
        if (!(err as { code?: string }).code) broken = err as Error;
        return null;
      } finally {
        client.release(broken);
      }
    },
    /**
     * One consistent read (a single REPEATABLE READ snapshot) for a reactor: the safe bound, the next
     * `limit` entries after `cursor` below it, and `settledThrough`, the highest journal id of ANY
     * type that exists below the bound after the cursor. A type-filtered reactor may skip its cursor
     * to `settledThrough` after a short batch, never to the bound itself: after a kill, Ponder's
     * crash recovery deletes and re-inserts the newest rows, and a checkpoint read without its rows
     * must not let a cursor jump over entries that are about to come back (an indexer killed mid-stream rewinds and re-creates them).
     */
    async readBatch(
      cursor: bigint,
      limit: number,
      types?: readonly JournalType[],
      opts: { confirmations?: number; window?: number } = {},
    ): Promise<JournalBatch | null> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const indexed = await safeBoundOn(client);
        if (indexed === null) return null;
        // Entries wait until `confirmations` indexed blocks lie on top of theirs.
        const bound = indexed - BigInt(opts.confirmations ?? 0) * BLOCK_FACTOR;
        const params: unknown[] = [cursor.toString(), bound.toString(), limit];
        let filter = "";
        if (types) {
          params.push(types);
          filter = ` AND j.type = ANY($4)`;
        }
        // ORDER BY j.id, qualified: a bare "id" would name the output column id::text and sort as
        // text, so a batch spanning a digit boundary (block 99 -> 100) came back out of order and
        // the cursor jumped over entries (seen under repeated indexer kills: 456 notifications lost).
        const { rows } = await client.query<JournalRow>(
          `SELECT ${journalColumns(q("journal"))}
             FROM ${q("journal")} j WHERE j.id > $1 AND j.id < $2${filter} ORDER BY j.id LIMIT $3`,
          params,
        );
        const top = await client.query<{ id: ChainRow<"journal">["id"] | null }>(`SELECT max(id) AS id FROM ${q("journal")} WHERE id > $1 AND id < $2`, [
          cursor.toString(),
          bound.toString(),
        ]);
        const entries = rows.map(toEntry);
        const settledThrough: bigint | null = top.rows[0]?.id ? BigInt(top.rows[0].id) : null;
        // Fingerprints, from the same snapshot, of the blocks the cursor already passed and of those
        // it may pass with this batch: the runner compares them to tell a reorg (api/reactors/runner.ts).
        const window = BigInt(opts.window ?? 0);
        let fingerprints = new Map<bigint, string>();
        if (window > 0n) {
          const upper = [cursor, entries.at(-1)?.id ?? 0n, settledThrough ?? 0n].reduce((a, b) => (b > a ? b : a));
          const hi = upper / BLOCK_FACTOR;
          const lo = cursor / BLOCK_FACTOR - window;
          fingerprints = await fingerprintsOn(client, lo < 0n ? 0n : lo, hi, hi - (cursor / BLOCK_FACTOR) > window ? hi - window : null);
        }
        return { entries, settledThrough, bound, fingerprints };
      } catch {
        return null; // views not there yet (indexer starting), or the indexer is re-creating them
      } finally {
        await client.query("COMMIT").catch(() => {});
        client.release();
      }
    },
    /** Mission entries of `types` with id in (after, upTo] (upTo: none = no upper end), in id order. */
    async missionEvents(after: bigint, types: readonly string[], limit: number, upTo?: bigint): Promise<{ id: bigint; type: string; missionId: string; txHash: string }[]> {
      const rows = await db.select({ id: j.id, type: j.type, missionId: j.missionId, txHash: j.txHash }).from(j)
        .where(and(gt(j.id, after), upTo === undefined ? undefined : lte(j.id, upTo), isNotNull(j.missionId), inArray(j.type, [...types])))
        .orderBy(asc(j.id)).limit(limit);
      return rows.map((r) => ({ ...r, missionId: r.missionId! }));
    },
    async maxId(): Promise<bigint> {
      const [row] = await db.select({ id: max(j.id) }).from(j);
      return row?.id ?? 0n;
    },
    /** Moves a cursor back (a reorg replaced entries it had passed). */
    async rewind(reactor: string, lastId: bigint): Promise<void> {
      await pool.query(
        `UPDATE api.reactor_cursors SET last_id = LEAST(last_id, $2::bigint), updated_at = now() WHERE reactor = $1`,
        [reactor, lastId.toString()],
      );
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

export interface JournalBatch {
  entries: JournalEntry[];
  /** The highest journal id of any type after the cursor and below the bound. */
  settledThrough: bigint | null;
  bound: bigint;
  /** Block -> fingerprint of its journal rows (see readBatch's `window`). */
  fingerprints: Map<bigint, string>;
}
