import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { authNonces } from "../db/schema.ts";

export type NonceRow = typeof authNonces.$inferSelect;

export function noncesRepository(db: Db) {
  return {
    async insert(row: Omit<NonceRow, "consumedAt">): Promise<void> {
      await db.insert(authNonces).values(row);
    },
    /**
     * Live (unconsumed, unexpired) messages of an address for a domain, oldest first: every one the
     * server issued is a candidate, however many came after it (`limit` is the issuance cap, a bound
     * on the work, never reached by honest use).
     */
    async live(address: string, domain: string, limit: number): Promise<NonceRow[]> {
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
        .orderBy(asc(authNonces.issuedAt))
        .limit(limit);
    },
    /** How many live messages the address has (any domain), and when the oldest of them expires. */
    async liveCount(address: string): Promise<{ count: number; oldestExpiresAt: Date | null }> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${authNonces.expiresAt})` })
        .from(authNonces)
        .where(and(eq(authNonces.address, address.toLowerCase()), isNull(authNonces.consumedAt), gt(authNonces.expiresAt, sql`now()`)));
      return { count: row?.count ?? 0, oldestExpiresAt: row?.oldest ? new Date(row.oldest) : null };
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
