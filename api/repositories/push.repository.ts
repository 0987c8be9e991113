// The Web Push outbox (api.push_deliveries): claims, outcomes, wake-ups. Rows are written with their
// notification (notifications.repository.ts insertOnce). Only DB code.
import type pg from "pg";
import { listen, type Listening } from "../db/listen.ts";
import { PUSH_WAKE_CHANNEL } from "./notifications.repository.ts";

export interface ClaimedPush {
  id: string;
  /** This attempt's number (1 = first; more only after a copy died holding the lease). */
  attempt: number;
  device: { id: string; userId: string; platform: string; token: string; keys: unknown; createdAt: Date };
  notification: { id: string; type: string; title: string; body: string; data: Record<string, unknown> };
}

/**
 * Per user its oldest pending row: one user's pushes go one at a time, so however many devices (or
 * silent endpoints) a user has, they hold at most one of the dispatchers' slots.
 */
const HEADS = `SELECT DISTINCT ON (user_id) id, lease_until
                 FROM api.push_deliveries
                WHERE status = 'pending'
                ORDER BY user_id, created_at, id`;

export function pushRepository(pool: pg.Pool) {
  return {
    /** Leases up to `limit` due heads; a concurrent claim of the same row re-checks the lease and skips it. */
    async claim(limit: number, leaseMs: number): Promise<ClaimedPush[]> {
      const { rows } = await pool.query(
        `WITH heads AS (${HEADS}), due AS (
           SELECT id FROM heads WHERE lease_until IS NULL OR lease_until < now() LIMIT $1
         ), claimed AS (
           UPDATE api.push_deliveries p
              SET lease_until = now() + make_interval(secs => $2::double precision / 1000), attempts = p.attempts + 1
             FROM due WHERE p.id = due.id AND p.status = 'pending' AND (p.lease_until IS NULL OR p.lease_until < now())
           RETURNING p.id, p.attempts, p.device_id, p.notification_id
         )
         SELECT c.id, c.attempts, d.id AS device_id, d.user_id, d.platform, d.token, d.keys, d.created_at,
                n.id AS notification_id, n.type, n.title, n.body, n.data
           FROM claimed c
           JOIN api.device_tokens d ON d.id = c.device_id
           JOIN api.notifications n ON n.id = c.notification_id`,
        [limit, leaseMs],
      );
      return rows.map((r) => ({
        id: r.id,
        attempt: r.attempts,
        device: { id: r.device_id, userId: r.user_id, platform: r.platform, token: r.token, keys: r.keys, createdAt: r.created_at },
        notification: { id: r.notification_id, type: r.type, title: r.title, body: r.body, data: r.data },
      }));
    },
    /** Milliseconds until a head becomes claimable (another copy's lease running out); 0 if one is due, null when none is pending. */
    async nextDueMs(): Promise<number | null> {
      const { rows } = await pool.query<{ ms: number | null }>(
        `WITH heads AS (${HEADS})
         SELECT (extract(epoch FROM min(coalesce(lease_until, now())) - now()) * 1000)::float8 AS ms FROM heads`,
      );
      const ms = rows[0]?.ms;
      return ms === null || ms === undefined ? null : Math.max(0, ms);
    },
    /** Records the outcome; ignored if another copy took the row over since (its attempt number moved on). */
    async finish(id: string, attempt: number, status: "sent" | "failed", error: string | null): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE api.push_deliveries SET status = $3, error = $4, lease_until = NULL, finished_at = now()
          WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
        [id, attempt, status, error?.slice(0, 500) ?? null],
      );
      return !!rowCount;
    },
    /** A subscription the push service says is gone (404/410): the device goes, with its queued pushes. */
    async dropDevice(deviceId: string): Promise<void> {
      await pool.query(`DELETE FROM api.device_tokens WHERE id = $1`, [deviceId]);
    },
    /** Finished rows are kept a day (what was sent, for support), then deleted. */
    async purgeFinished(): Promise<void> {
      await pool.query(`DELETE FROM api.push_deliveries WHERE finished_at < now() - interval '1 day'`);
    },
    /** Holds a connection LISTENing for the writers' wake-ups (see api/db/listen.ts for `onLost`). */
    listen(onNotify: () => void, onLost: (err?: unknown) => void): Promise<Listening> {
      return listen(pool, PUSH_WAKE_CHANNEL, () => onNotify(), onLost);
    },
  };
}
export type PushRepository = ReturnType<typeof pushRepository>;
