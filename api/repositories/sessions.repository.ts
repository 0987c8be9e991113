// Session revocation as other copies learn of it: a revocation (users.session_epoch + 1) is
// announced on a channel in the same transaction, so the NOTIFY goes out exactly when it commits.
import type pg from "pg";
import { listen, type Listening } from "../db/listen.ts";

export const SESSION_REVOKED_CHANNEL = "session_revoked";

/** The statement a revoking transaction runs after raising the epoch (payload "<user id>:<new epoch>"). */
export const notifyRevokedSql = `SELECT pg_notify('${SESSION_REVOKED_CHANNEL}', id::text || ':' || session_epoch) FROM api.users WHERE id = $1`;

export function sessionsRepository(pool: pg.Pool) {
  return {
    /** Current session epoch of each user that exists (a missing id: the user is gone). */
    async epochs(userIds: string[]): Promise<Map<string, number>> {
      if (userIds.length === 0) return new Map();
      const { rows } = await pool.query<{ id: string; epoch: number }>(
        `SELECT id::text AS id, session_epoch AS epoch FROM api.users WHERE id = ANY($1::uuid[])`,
        [userIds],
      );
      return new Map(rows.map((r) => [r.id, r.epoch]));
    },
    /** Calls `onRevoked(userId, epoch)` for every committed revocation; `onLost` once if the connection goes. */
    listen(onRevoked: (userId: string, epoch: number) => void, onLost: (err?: unknown) => void): Promise<Listening> {
      return listen(pool, SESSION_REVOKED_CHANNEL, (payload) => {
        const [userId, epoch] = (payload ?? "").split(":");
        const n = Number(epoch);
        if (userId && Number.isSafeInteger(n)) onRevoked(userId, n);
      }, onLost);
    },
  };
}
export type SessionsRepository = ReturnType<typeof sessionsRepository>;
