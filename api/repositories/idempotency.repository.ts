import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { idempotencyKeys } from "../db/schema.ts";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export function idempotencyRepository(db: Db) {
  return {
    /** Claims (scope, key) for this request; returns false when a row already exists. */
    async claim(scope: string, key: string, requestHash: string, ttlMs: number): Promise<boolean> {
      const rows = await db
        .insert(idempotencyKeys)
        .values({ scope, key, requestHash, state: "in_flight", expiresAt: new Date(Date.now() + ttlMs) })
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
            sql`(${idempotencyKeys.expiresAt} < now() OR (${idempotencyKeys.state} = 'in_flight' AND ${idempotencyKeys.createdAt} < now() - make_interval(secs => ${staleInFlightMs / 1000})))`,
          ),
        )
        .returning({ key: idempotencyKeys.key });
      return rows.length === 1;
    },
    async purgeExpired(): Promise<void> {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, sql`now()`));
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;
