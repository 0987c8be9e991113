import { randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type pg from "pg";
import type { Db } from "../db/client.ts";
import { apiInstances, idempotencyKeys } from "../db/schema.ts";
import { OUTBOX_COLUMNS, REQUEST_ROW_WHERE, toOutboxRow, type OutboxRow } from "./outbox-rows.ts";

/** Each API process beats this often; a claim whose owner has not beaten for OWNER_DEAD_MS is stale. */
const HEARTBEAT_MS = 1_000;
export const OWNER_DEAD_MS = 5_000;

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** A claim's outcome, and the relayer's recorded first send of this (scope, key, body) if there is one. */
export interface Claim {
  claimed: boolean;
  /** The outbox row of the request's first send (seq 0), read in the claim's statement. */
  recorded: OutboxRow | null;
}

// The claim and the lookup of the request's first recorded send in one statement: a request that
// relays a transaction needs both (a retry after a crash resumes the recorded tx instead of signing a
// second one), and reading them in one round trip saves one on every keyed write. Only the holder of
// the claim records a send under it, so the row read here is the one its send would read later (a
// stalled owner whose claim was taken over still meets the outbox's unique key when it records).
const CLAIM_SQL = `WITH claim AS (
    INSERT INTO api.idempotency_keys (scope, key, request_hash, state, owner, expires_at)
    VALUES ($1, $2, $3, 'in_flight', $5, $6) ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT EXISTS (SELECT 1 FROM claim) AS claimed, o.*
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (
    SELECT ${OUTBOX_COLUMNS} FROM api.relayer_outbox WHERE ${REQUEST_ROW_WHERE}
  ) AS o ON true`;

// The completion, the last statement before every keyed write's response: named (parsed and planned
// once per connection) rather than built by drizzle and planned on each call.
const COMPLETE_SQL = `UPDATE api.idempotency_keys SET state = 'done', response_status = $3, response_body = $4
  WHERE scope = $1 AND key = $2`;

export function idempotencyRepository(db: Db, pool: pg.Pool) {
  // This process's liveness row: a crashed API (kill -9) stops beating, so its in-flight claims can
  // be taken over within seconds instead of the 5-minute fallback (the relayer's outbox then makes
  // sure the takeover resumes the recorded transaction instead of sending a second one).
  const instanceId = randomUUID();
  let beating: Promise<void> | null = null;
  const beat = () =>
    db
      .insert(apiInstances)
      .values({ id: instanceId })
      .onConflictDoUpdate({ target: apiInstances.id, set: { heartbeatAt: sql`now()` } })
      .then(() => {});
  const ensureBeating = (): Promise<void> => {
    if (!beating) {
      beating = beat();
      beating.catch(() => (beating = null));
      const timer = setInterval(() => void beat().catch(() => {}), HEARTBEAT_MS);
      timer.unref();
      beating.catch(() => clearInterval(timer));
    }
    return beating;
  };
  return {
    instanceId,
    /**
     * Claims (scope, key) for this request (`claimed` false when a row already exists) and reads the
     * relayer's recorded first send of this request (scope, key, request hash), if any.
     */
    async claim(scope: string, key: string, requestHash: string, ttlMs: number): Promise<Claim> {
      await ensureBeating();
      const { rows } = await pool.query({
        name: "idempotency_claim",
        text: CLAIM_SQL,
        values: [scope, key, requestHash, 0, instanceId, new Date(Date.now() + ttlMs)],
      });
      const row = rows[0] as Record<string, unknown>;
      return { claimed: row.claimed === true, recorded: row.id === null || row.id === undefined ? null : toOutboxRow(row) };
    },
    async find(scope: string, key: string): Promise<IdempotencyRow | null> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)))
        .limit(1);
      return row ?? null;
    },
    async complete(scope: string, key: string, status: number, body: string): Promise<void> {
      await pool.query({ name: "idempotency_complete", text: COMPLETE_SQL, values: [scope, key, status, body] });
    },
    async release(scope: string, key: string): Promise<void> {
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    },
    /** Deletes the row only if it is expired or an abandoned in-flight claim; true if deleted. */
    async reclaimIfStale(scope: string, key: string, staleInFlightMs: number): Promise<boolean> {
      const rows = await db
        .delete(idempotencyKeys)
        .where(
          and(
            eq(idempotencyKeys.scope, scope),
            eq(idempotencyKeys.key, key),
            sql`(${idempotencyKeys.expiresAt} < now() OR (${idempotencyKeys.state} = 'in_flight' AND (
              ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${staleInFlightMs / 1000})
              OR (${idempotencyKeys.owner} IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM ${apiInstances} WHERE ${apiInstances.id} = ${idempotencyKeys.owner}
                AND ${apiInstances.heartbeatAt} > now() - make_interval(secs => ${OWNER_DEAD_MS / 1000}))))))`,
          ),
        )
        .returning({ key: idempotencyKeys.key });
      return rows.length === 1;
    },
    async purgeExpired(): Promise<void> {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
      await db.delete(apiInstances).where(lt(apiInstances.heartbeatAt, sql`now() - interval '1 day'`));
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;
