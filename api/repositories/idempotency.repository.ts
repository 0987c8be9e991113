import { randomUUID } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiInstances, idempotencyKeys } from "../db/schema.ts";

/** Each API process beats this often; a claim whose owner has not beaten for OWNER_DEAD_MS is stale. */
const HEARTBEAT_MS = 1_000;
export const OWNER_DEAD_MS = 5_000;

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export function idempotencyRepository(db: Db) {
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
    /** Claims (scope, key) for this request; returns false when a row already exists. */
    async claim(scope: string, key: string, requestHash: string, ttlMs: number): Promise<boolean> {
      await ensureBeating();
      const rows = await db
        .insert(idempotencyKeys)
        .values({ scope, key, requestHash, state: "in_flight", owner: instanceId, expiresAt: new Date(Date.now() + ttlMs) })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      return rows.length === 1;
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
      await db
        .update(idempotencyKeys)
        .set({ state: "done", responseStatus: status, responseBody: body })
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
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
