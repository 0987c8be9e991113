import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { authNonces } from "../db/schema.ts";

export type NonceRow = typeof authNonces.$inferSelect;

export function noncesRepository(db: Db) {
  return {
    async insert(row: Omit<NonceRow, "consumedAt">): Promise<void> {
      await db.insert(authNonces).values(row);
    },
    /** Live (unconsumed, unexpired) nonces of an address for a domain, newest first. */
    async live(address: string, domain: string, limit = 5): Promise<NonceRow[]> {
      return db
        .select()
        .from(authNonces)
        .where(
          and(
            eq(authNonces.address, address.toLowerCase()),
            eq(authNonces.domain, domain),
            isNull(authNonces.consumedAt),
            gt(authNonces.expiresAt, sql`now()`),
          ),
        )
        .orderBy(desc(authNonces.issuedAt))
        .limit(limit);
    },
    /** Atomic single use: exactly one caller gets true for a nonce. */
    async consume(nonce: string): Promise<boolean> {
      const rows = await db
        .update(authNonces)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(authNonces.nonce, nonce), isNull(authNonces.consumedAt), gt(authNonces.expiresAt, sql`now()`)))
        .returning({ nonce: authNonces.nonce });
      return rows.length === 1;
    },
    async purgeExpired(): Promise<void> {
      await db.delete(authNonces).where(lt(authNonces.expiresAt, sql`now() - interval '1 day'`));
    },
  };
}
export type NoncesRepository = ReturnType<typeof noncesRepository>;
