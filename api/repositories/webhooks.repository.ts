// Webhook endpoints, the delivery outbox and the attempt log. Only DB code.
import { and, desc, eq, max } from "drizzle-orm";
import type pg from "pg";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { listen, type Listening } from "../db/listen.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from "../db/webhooks.schema.ts";

export interface NewDelivery {
  endpointId: string;
  messageId: string;
  journalId: bigint;
  event: string;
  body: string;
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  messageId: string;
  body: string;
  /** This attempt's number (1 = first). */
  attempt: number;
  url: string;
  /** The current secret, then the previous one while its overlap lasts. */
  secrets: string[];
}

export type AttemptOutcome =
  | { status: "succeeded" }
  | { status: "failed"; nextAttemptAt: Date }
  | { status: "gave_up" };

/** Per endpoint its oldest pending delivery (chain order), endpoints not disabled: what can be sent next. */
const HEADS = `SELECT DISTINCT ON (x.endpoint_id) x.id, x.next_attempt_at, x.lease_until
                 FROM api.webhook_deliveries x
                 JOIN api.webhook_endpoints e ON e.id = x.endpoint_id AND e.disabled_at IS NULL
                WHERE x.status = 'pending'
                ORDER BY x.endpoint_id, x.journal_id`;

/** The channel migration 0022's triggers notify on a new delivery and on a retry's new time. */
export const WEBHOOK_WAKE_CHANNEL = "webhook_deliveries";

export function webhooksRepository(db: Db, pool: pg.Pool, chain: Pick<ChainTables, "journal">) {
  const mine = (id: string, userId: string) => and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId));
  return {
    /** The newest journal id indexed so far (0 before the indexer wrote one). */
    async newestJournalId(): Promise<bigint> {
      try {
        const [row] = await db.select({ id: max(chain.journal.id) }).from(chain.journal);
        return row?.id ?? 0n;
      } catch {
        return 0n; // views not there yet: nothing indexed
      }
    },
    async create(v: typeof webhookEndpoints.$inferInsert): Promise<WebhookEndpointRow> {
      const [row] = await db.insert(webhookEndpoints).values(v).returning();
      return row!;
    },
    listByUser(userId: string): Promise<WebhookEndpointRow[]> {
      return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt));
    },
    async findForUser(id: string, userId: string): Promise<WebhookEndpointRow | null> {
      const [row] = await db.select().from(webhookEndpoints).where(mine(id, userId)).limit(1);
      return row ?? null;
    },
    async deleteForUser(id: string, userId: string): Promise<boolean> {
      const rows = await db.delete(webhookEndpoints).where(mine(id, userId)).returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },
    async rotateSecret(id: string, userId: string, secret: string, overlapUntil: Date): Promise<WebhookEndpointRow | null> {
      const { rows } = await pool.query<{ id: string }>(
        `UPDATE api.webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3
          WHERE id = $1 AND user_id = $2 RETURNING id`,
        [id, userId, secret, overlapUntil],
      );
      return rows[0] ? this.findForUser(id, userId) : null;
    },
    attempts(endpointId: string, limit: number) {
      return db
        .select({
          id: webhookAttempts.id, attempt: webhookAttempts.attempt, status: webhookAttempts.status,
          responseCode: webhookAttempts.responseCode, durationMs: webhookAttempts.durationMs, error: webhookAttempts.error,
          nextAttemptAt: webhookAttempts.nextAttemptAt, createdAt: webhookAttempts.createdAt,
          messageId: webhookDeliveries.messageId, event: webhookDeliveries.event, deliveryStatus: webhookDeliveries.status,
        })
        .from(webhookAttempts)
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .where(eq(webhookAttempts.endpointId, endpointId))
        .orderBy(desc(webhookAttempts.id))
        .limit(limit);
    },
    /** Enabled endpoints of these owners subscribed to `event` and registered before `journalId`. */
    async subscribers(owners: string[], event: string, journalId: bigint): Promise<{ id: string }[]> {
      const { rows } = await pool.query<{ id: string }>(
        `SELECT id FROM api.webhook_endpoints
          WHERE owner_address = ANY($1::text[]) AND $2 = ANY(events) AND disabled_at IS NULL AND from_journal_id < $3`,
        [owners, event, journalId.toString()],
      );
      return rows;
    },
    /** Exactly once per (endpoint, journal entry): a replayed entry inserts nothing. */
    async enqueue(list: NewDelivery[]): Promise<number> {
      if (list.length === 0) return 0;
      const rows = await db
        .insert(webhookDeliveries)
        .values(list)
        .onConflictDoNothing({ target: [webhookDeliveries.endpointId, webhookDeliveries.journalId] })
        .returning({ id: webhookDeliveries.id });
      return rows.length;
    },
    /**
     * Leases up to `limit` deliveries that are due: per endpoint only its oldest pending one (chain
     * order), and none already leased. Safe across API copies: a concurrent claim of the same row
     * re-checks the lease after the first commits and skips it.
     */
    async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const { rows } = await pool.query(
        `WITH heads AS (${HEADS}), due AS (
           SELECT id FROM heads WHERE next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
            ORDER BY next_attempt_at LIMIT $1
         ), claimed AS (
           UPDATE api.webhook_deliveries d
              SET lease_until = now() + make_interval(secs => $2::double precision / 1000), attempts = d.attempts + 1
             FROM due WHERE d.id = due.id AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until < now())
           RETURNING d.id, d.endpoint_id, d.message_id, d.body, d.attempts
         )
         SELECT c.*, e.url, e.secret,
                CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
           FROM claimed c JOIN api.webhook_endpoints e ON e.id = c.endpoint_id`,
        [limit, leaseMs],
      );
      return rows.map((r) => ({
        id: r.id, endpointId: r.endpoint_id, messageId: r.message_id, body: r.body, attempt: r.attempts, url: r.url,
        secrets: [r.secret, r.previous_secret].filter((s): s is string => !!s),
      }));
    },
    /**
     * Milliseconds until the next head becomes claimable (its retry time, or the end of another
     * copy's lease), by the database's clock; 0 if one is due now, null when nothing is pending.
     */
    async nextDueMs(): Promise<number | null> {
      const { rows } = await pool.query<{ ms: number | null }>(
        `WITH heads AS (${HEADS})
         SELECT (extract(epoch FROM min(greatest(next_attempt_at, coalesce(lease_until, next_attempt_at))) - now()) * 1000)::float8 AS ms
           FROM heads`,
      );
      // NULL when nothing is pending (clamped here: SQL's greatest() would turn that NULL into 0).
      const ms = rows[0]?.ms;
      return ms === null || ms === undefined ? null : Math.max(0, ms);
    },
    /** Holds a connection LISTENing for migration 0022's wake-ups (see api/db/listen.ts for `onLost`). */
    listen(onNotify: () => void, onLost: (err?: unknown) => void): Promise<Listening> {
      return listen(pool, WEBHOOK_WAKE_CHANNEL, () => onNotify(), onLost);
    },
    /** Records one attempt and moves the delivery on; ignored if another copy took the delivery over since. */
    async finish(
      d: Pick<ClaimedDelivery, "id" | "endpointId" | "attempt">,
      outcome: AttemptOutcome,
      result: { responseCode: number | null; durationMs: number; error: string | null },
    ): Promise<boolean> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const next = outcome.status === "failed" ? outcome.nextAttemptAt : null;
        const { rowCount } = await client.query(
          `UPDATE api.webhook_deliveries
              SET status = $3, lease_until = NULL, next_attempt_at = coalesce($4, next_attempt_at),
                  finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE now() END
            WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
          [d.id, d.attempt, outcome.status === "failed" ? "pending" : outcome.status === "succeeded" ? "succeeded" : "failed", next],
        );
        if (rowCount) {
          await client.query(
            `INSERT INTO api.webhook_attempts (delivery_id, endpoint_id, attempt, status, response_code, duration_ms, error, next_attempt_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [d.id, d.endpointId, d.attempt, outcome.status, result.responseCode, result.durationMs, result.error?.slice(0, 500) ?? null, next],
          );
        }
        await client.query("COMMIT");
        return !!rowCount;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    /** Disables an endpoint; the row only when this call disabled it (so the owner is told once). */
    async disable(endpointId: string, reason: string): Promise<{ userId: string; ownerAddress: string; url: string; disabledAt: Date } | null> {
      const { rows } = await pool.query(
        `UPDATE api.webhook_endpoints SET disabled_at = now(), disabled_reason = $2
          WHERE id = $1 AND disabled_at IS NULL RETURNING user_id, owner_address, url, disabled_at`,
        [endpointId, reason],
      );
      const r = rows[0];
      return r ? { userId: r.user_id, ownerAddress: r.owner_address, url: r.url, disabledAt: r.disabled_at } : null;
    },
  };
}
export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
