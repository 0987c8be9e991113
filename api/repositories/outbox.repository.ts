// The relayer's nonce counter and outbox (api.relayer_nonces, api.relayer_outbox). Raw SQL on the
// pool: the allocation is one short transaction whose row lock on the counter is the only place
// where API copies sharing a relayer key are serialised (nonce, sign, record), never the broadcast
// or the wait for a receipt.
import type pg from "pg";
import type { Hex } from "viem";
import { OUTBOX_COLUMNS, REQUEST_ROW_WHERE, toOutboxRow, type OutboxRow, type OutboxStatus, type RequestRef } from "./outbox-rows.ts";

const COLUMNS = OUTBOX_COLUMNS;
const HASH_RE = /^0x[0-9a-f]{64}$/i;
const RAW_RE = /^0x[0-9a-f]+$/i;
/** PostgreSQL's unique_violation: another attempt of the same request recorded its row first. */
const UNIQUE_VIOLATION = "23505";

export interface AllocateItem {
  fn: string;
  ref: RequestRef | null;
  /** A dead row (failed/dropped) of this request to replace. */
  replaceId?: number;
  sign: (nonce: bigint) => Promise<{ hash: Hex; raw: Hex }>;
}

/** Two attempts of one request met in a batch: nothing was allocated; retry the items one by one. */
export class BatchConflict extends Error {}

/**
 * A send made `alone` (no other send of its key in flight in this process: one write at a time, where
 * its latency is what a user waits for) is allocated in ONE statement on the pool: this process
 * remembers the counter it last committed, signs with the nonces that follow, and the statement moves
 * the counter only if it still holds that value (compare and set under the row's lock) and records the
 * rows only if it moved. Anything else takes the locked transaction (a dedicated connection, two round
 * trips): concurrent sends (its length is the window in which the sends arriving meanwhile gather into
 * one allocation and one broadcast batch; in one statement they went out in smaller groups, in twice
 * as many blocks on an automining node), the first send of a process, a chain count ahead of the
 * counter, a dead row to replace, and another API copy that moved the counter.
 */
export function outboxRepository(pool: pg.Pool, chainId: number, address: string) {
  const sender = address.toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(sender) || !Number.isSafeInteger(chainId)) throw new Error("bad relayer address/chain");
  /** The counter as this process last committed it (null: unknown, take the locked path). */
  let expected: bigint | null = null;

  /** Checked values of the signed rows (the statements carry them as literals or arrays). */
  function checked(items: AllocateItem[], signed: { hash: Hex; raw: Hex }[]) {
    return items.map((item, i) => {
      const { hash, raw } = signed[i]!;
      if (!HASH_RE.test(hash) || !RAW_RE.test(raw)) throw new Error("a signed transaction is not hex");
      const seq = item.ref?.seq;
      if (seq !== undefined && !Number.isSafeInteger(seq)) throw new Error("bad request seq");
      return { hash, raw, seq: seq ?? null };
    });
  }

  /**
   * The one-statement allocation from `first` (the counter this process expects): the rows, or null
   * when the counter is no longer `first` (nothing was written). A row another attempt of the same
   * request recorded first is a unique violation: the statement fails and nothing of it stays.
   */
  async function allocateExpected(items: AllocateItem[], first: bigint): Promise<Record<string, unknown>[] | null> {
    const signed = checked(items, await Promise.all(items.map((item, i) => item.sign(first + BigInt(i)))));
    const { rows } = await pool.query({
      name: "relayer_allocate_expected",
      text: `WITH upd AS (
         UPDATE api.relayer_nonces SET next_nonce = $4
         WHERE chain_id = $1 AND address = $2 AND next_nonce = $3
         RETURNING 1
       )
       INSERT INTO api.relayer_outbox (chain_id, address, nonce, hash, raw, fn, status, scope, key, request_hash, seq)
       SELECT $1, $2, t.n, t.h, t.r, t.f, 'signed', t.sc, t.k, t.rh, t.sq
       FROM unnest($5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[])
         AS t(n, h, r, f, sc, k, rh, sq)
       WHERE EXISTS (SELECT 1 FROM upd)
       RETURNING ${COLUMNS}`,
      values: [
        chainId, sender, first.toString(), (first + BigInt(items.length)).toString(),
        items.map((_, i) => (first + BigInt(i)).toString()), signed.map((x) => x.hash), signed.map((x) => x.raw),
        items.map((x) => x.fn), items.map((x) => x.ref?.scope ?? null), items.map((x) => x.ref?.key ?? null),
        items.map((x) => x.ref?.requestHash ?? null), signed.map((x) => x.seq),
      ],
    });
    return rows.length ? rows : null;
  }

  return {
    /** Whichever key of the pool signed it (the pool resumes on that key). */
    async findForRequest(ref: RequestRef): Promise<OutboxRow | null> {
      const { rows } = await pool.query(`SELECT ${COLUMNS} FROM api.relayer_outbox WHERE ${REQUEST_ROW_WHERE}`, [ref.scope, ref.key, ref.requestHash, ref.seq]);
      return rows[0] ? toOutboxRow(rows[0]) : null;
    },

    /**
     * Takes the next nonces (at least `hint`, the chain's pending count, when given: another sender
     * may have used the key), signs each item with its nonce and records the signed txs, in one
     * transaction: a batch of queued sends shares one lock/commit. With `reconcile`, a counter ahead
     * of the chain with nothing in flight (the chain was reset) falls back to the chain's count.
     * A single item answers { conflict } when another attempt of the same request (scope, key,
     * request hash, seq) recorded its tx first; in a batch of several, any conflict rolls everything
     * back and throws BatchConflict (the caller retries the items one by one).
     */
    async allocate(
      items: AllocateItem[],
      opts: { hint: bigint; reconcile: boolean; alone?: boolean },
    ): Promise<({ row: OutboxRow } | { conflict: OutboxRow })[]> {
      const conflictOf = async (): Promise<[{ conflict: OutboxRow }]> => {
        if (items.length > 1) throw new BatchConflict();
        const other = items[0]!.ref ? await this.findForRequest(items[0]!.ref) : null;
        if (!other) throw new Error("outbox insert conflicted but no row was found");
        return [{ conflict: other }];
      };
      const first = expected;
      if (opts.alone && first !== null && !opts.reconcile && opts.hint <= first && items.every((i) => i.replaceId === undefined)) {
        expected = null; // until this statement's outcome is known
        let rows: Record<string, unknown>[] | null;
        try {
          rows = await allocateExpected(items, first);
        } catch (err) {
          if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
          expected = first; // nothing was written
          return conflictOf();
        }
        if (rows) {
          expected = first + BigInt(items.length);
          const byNonce = new Map(rows.map((r) => [BigInt(r.nonce as string), toOutboxRow(r)]));
          return items.map((_, i) => ({ row: byNonce.get(first + BigInt(i))! }));
        }
        // Another API copy moved the counter: the locked path reads it.
      }
      const client = await pool.connect();
      let broken = false;
      try {
        const replaced = items.flatMap((i) => (i.replaceId === undefined ? [] : [Number(i.replaceId)]));
        // One round trip: BEGIN, create the counter, lock it (literals only: validated numbers/hex).
        const results = (await client.query(
          `BEGIN;
           ${replaced.length ? `DELETE FROM api.relayer_outbox WHERE id IN (${replaced.join(",")}) AND status IN ('failed', 'dropped');` : ""}
           INSERT INTO api.relayer_nonces (chain_id, address, next_nonce) VALUES (${chainId}, '${sender}', ${opts.hint}) ON CONFLICT DO NOTHING;
           SELECT next_nonce,
             ${opts.reconcile ? `EXISTS (SELECT 1 FROM api.relayer_outbox WHERE chain_id = ${chainId} AND address = '${sender}' AND status = 'signed' AND nonce >= ${opts.hint})` : "true"} AS in_flight
           FROM api.relayer_nonces WHERE chain_id = ${chainId} AND address = '${sender}' FOR UPDATE`,
        )) as unknown as pg.QueryResult[];
        const locked = results[results.length - 1]!.rows[0] as { next_nonce: string; in_flight: boolean };
        const counter = BigInt(locked.next_nonce);
        let first = counter > opts.hint ? counter : opts.hint;
        if (opts.reconcile && counter > opts.hint && !locked.in_flight) first = opts.hint;
        const signed = await Promise.all(items.map((item, i) => item.sign(first + BigInt(i))));
        // The rows, the counter and the COMMIT in one round trip (a multi-statement query, so values
        // are literals: numbers and hex checked, text escaped by pg). A row another attempt of the same
        // request recorded first is a unique violation: the statement fails, the COMMIT never runs,
        // and nothing of this transaction stays.
        const text = (v: string | null | undefined) => (v === null || v === undefined ? "NULL::text" : `${client.escapeLiteral(v)}::text`);
        const values = checked(items, signed).map(({ hash, raw, seq }, i) => {
          const item = items[i]!;
          return `(${first + BigInt(i)}::bigint, '${hash}'::text, '${raw}'::text, ${text(item.fn)}, ${text(item.ref?.scope)}, ${text(item.ref?.key)}, ${text(item.ref?.requestHash)}, ${seq ?? "NULL"}::int)`;
        });
        let rows: Record<string, unknown>[];
        try {
          const done = (await client.query(
            `WITH ins AS (
               INSERT INTO api.relayer_outbox (chain_id, address, nonce, hash, raw, fn, status, scope, key, request_hash, seq)
               SELECT ${chainId}, '${sender}', n, h, r, f, 'signed', sc, k, rh, sq
               FROM (VALUES ${values.join(", ")}) AS t(n, h, r, f, sc, k, rh, sq)
               RETURNING ${COLUMNS}
             ), upd AS (
               UPDATE api.relayer_nonces SET next_nonce = ${first + BigInt(items.length)}
               WHERE chain_id = ${chainId} AND address = '${sender}'
               RETURNING 1
             )
             SELECT * FROM ins;
             COMMIT`,
          )) as unknown as pg.QueryResult[];
          rows = done[0]!.rows;
        } catch (err) {
          if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
          await client.query("ROLLBACK");
          return conflictOf();
        }
        expected = first + BigInt(items.length);
        const byHash = new Map(rows.map((r) => [r.hash as string, toOutboxRow(r)]));
        return signed.map((x) => ({ row: byHash.get(x.hash)! }));
      } catch (err) {
        // Also when the opening multi-statement query failed after its BEGIN: a
        // connection must never go back to the pool inside a transaction. If even ROLLBACK fails, drop it.
        await client.query("ROLLBACK").catch(() => (broken = true));
        throw err;
      } finally {
        client.release(broken);
      }
    },

    /** Records the outcome of mined transactions (one statement per block). */
    async markMined(items: { hash: Hex; success: boolean; block: bigint }[]): Promise<void> {
      if (!items.length) return;
      // A replaced tx may be mined under any of its broadcast hashes: the row then takes that one.
      await pool.query(
        `UPDATE api.relayer_outbox o SET status = CASE WHEN m.ok THEN 'mined' ELSE 'reverted' END,
           block_number = m.block, hash = m.hash, raw = coalesce(b.raw, o.raw), updated_at = now()
         FROM unnest($1::text[], $2::boolean[], $3::bigint[]) AS m(hash, ok, block)
           LEFT JOIN api.relayer_broadcasts b ON b.hash = m.hash
         WHERE (o.hash = m.hash OR o.id = b.outbox_id) AND o.chain_id = $4 AND o.address = $5 AND o.status <> 'mined'`,
        [items.map((i) => i.hash), items.map((i) => i.success), items.map((i) => i.block.toString()), chainId, sender],
      );
    },

    async markStatus(id: number, status: OutboxStatus): Promise<void> {
      await pool.query(`UPDATE api.relayer_outbox SET status = $2, updated_at = now() WHERE id = $1`, [id, status]);
    },

    async markDroppedByHash(hash: Hex): Promise<void> {
      await pool.query(
        `UPDATE api.relayer_outbox SET status = 'dropped', updated_at = now() WHERE hash = $1 AND status = 'signed'`,
        [hash],
      );
    },

    /** Signed, not-yet-mined rows from `nonce` up, lowest first. */
    async liveFrom(nonce: bigint, limit = 32): Promise<OutboxRow[]> {
      const { rows } = await pool.query(
        `SELECT ${COLUMNS} FROM api.relayer_outbox
         WHERE chain_id = $1 AND address = $2 AND status = 'signed' AND nonce >= $3
         ORDER BY nonce, id LIMIT $4`,
        [chainId, sender, nonce.toString(), limit],
      );
      return rows.map(toOutboxRow);
    },

    /** The signed (not yet mined) row whose latest broadcast is `hash`. */
    async findSignedByHash(hash: Hex): Promise<OutboxRow | null> {
      const { rows } = await pool.query(
        `SELECT ${COLUMNS} FROM api.relayer_outbox WHERE chain_id = $1 AND address = $2 AND hash = $3 AND status = 'signed'`,
        [chainId, sender, hash],
      );
      return rows[0] ? toOutboxRow(rows[0]) : null;
    },

    /** Every hash a row was broadcast under (its current one first). */
    async broadcastHashes(id: number): Promise<Hex[]> {
      const { rows } = await pool.query(
        `SELECT hash FROM api.relayer_outbox WHERE id = $1
         UNION ALL SELECT hash FROM (SELECT hash FROM api.relayer_broadcasts WHERE outbox_id = $1 ORDER BY sent_at DESC, id DESC) b`,
        [id],
      );
      return [...new Set(rows.map((r) => r.hash as Hex))];
    },

    /**
     * Records a replacement of row `id` (still signed, still broadcast as `prev`) before it is sent:
     * the first broadcast too when this is the first replacement. False when the row moved on
     * (mined, or replaced by another API copy): nothing is then to be sent.
     */
    async recordReplacement(
      id: number,
      prev: { hash: Hex; raw: Hex; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
      next: { hash: Hex; raw: Hex; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
    ): Promise<boolean> {
      const { rows } = await pool.query(
        `WITH upd AS (
           UPDATE api.relayer_outbox SET hash = $3, raw = $4, updated_at = now()
           WHERE id = $1 AND hash = $2 AND status = 'signed' RETURNING id, created_at
         ), first AS (
           INSERT INTO api.relayer_broadcasts (outbox_id, hash, raw, max_fee_per_gas, max_priority_fee_per_gas, sent_at)
           SELECT id, $2, $7, $8, $9, created_at FROM upd
           WHERE NOT EXISTS (SELECT 1 FROM api.relayer_broadcasts WHERE outbox_id = $1)
           ON CONFLICT (hash) DO NOTHING RETURNING 1
         )
         INSERT INTO api.relayer_broadcasts (outbox_id, hash, raw, max_fee_per_gas, max_priority_fee_per_gas)
         SELECT id, $3, $4, $5, $6 FROM upd RETURNING 1`,
        [id, prev.hash, next.hash, next.raw, next.maxFeePerGas.toString(), next.maxPriorityFeePerGas.toString(),
          prev.raw, prev.maxFeePerGas.toString(), prev.maxPriorityFeePerGas.toString()],
      );
      return rows.length === 1;
    },

    /** Drops settled rows older than the keys' lifetime (plus a margin for forensics). */
    async purge(): Promise<void> {
      await pool.query(
        `DELETE FROM api.relayer_outbox WHERE chain_id = $1 AND address = $2 AND status <> 'signed' AND created_at < now() - interval '3 days'`,
        [chainId, sender],
      );
    },

    /** Records a transaction outside the counter (a no-op filling a nonce gap). */
    async recordFiller(nonce: bigint, hash: Hex, raw: Hex): Promise<void> {
      await pool.query(
        `INSERT INTO api.relayer_outbox (chain_id, address, nonce, hash, raw, fn, status) VALUES ($1, $2, $3, $4, $5, 'gap-fill', 'signed')`,
        [chainId, sender, nonce.toString(), hash, raw],
      );
    },
  };
}
export type OutboxRepository = ReturnType<typeof outboxRepository>;
