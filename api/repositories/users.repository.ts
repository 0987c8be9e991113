import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { users, vaults } from "../db/schema.ts";

export type UserRow = typeof users.$inferSelect;

export const DEFAULT_VAULT_PERMISSIONS = {
  locationSharing: { enabled: false, precision: "neighborhood", liveTrackingConsent: false },
  profileVisibility: { displayName: "public", bio: "public", stats: "public", missionHistory: "public" },
  notifications: { push: true, email: false, marketing: false },
};

/** A copy touches a user's lastActiveAt at most this often (see touch). */
const TOUCH_EVERY_MS = 60_000;

export function usersRepository(db: Db) {
  const touchedAt = new Map<string, number>();
  let prunedAt = 0;
  // Every signed-in request reads its user (api/services/auth.service.ts authenticate): one named
  // prepared statement, built once, planned once per connection.
  const byId = db.select().from(users).where(eq(users.id, sql.placeholder("id"))).limit(1).prepare("users_by_id");
  return {
    async findById(id: string): Promise<UserRow | null> {
      const [row] = await byId.execute({ id });
      return row ?? null;
    },
    async findByAddress(address: string): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.evmAddress, address.toLowerCase())).limit(1);
      return row ?? null;
    },
    async findByAddresses(addresses: string[]): Promise<UserRow[]> {
      if (addresses.length === 0) return [];
      return db
        .select()
        .from(users)
        .where(inArray(users.evmAddress, addresses.map((a) => a.toLowerCase())));
    },
    /** First sign-in creates the user and their vault; later sign-ins only touch lastActiveAt. */
    async upsertOnSignIn(address: string): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ evmAddress: address.toLowerCase() })
          .onConflictDoUpdate({ target: users.evmAddress, set: { lastActiveAt: sql`now()` } })
          .returning();
        await tx
          .insert(vaults)
          .values({ userId: user!.id, permissions: DEFAULT_VAULT_PERMISSIONS })
          .onConflictDoNothing();
        return user!;
      });
    },
    /** Throttled: at most one write per user per 5 minutes. */
    /**
     * lastActiveAt, at most every 5 minutes (the SQL's guard, shared by every copy); this copy also
     * skips the statement for a user it touched in the last minute (one round trip less per request).
     */
    async touch(id: string): Promise<void> {
      const t = Date.now();
      const last = touchedAt.get(id);
      if (last !== undefined && t - last < TOUCH_EVERY_MS) return;
      if (t - prunedAt >= TOUCH_EVERY_MS) {
        prunedAt = t;
        for (const [k, v] of touchedAt) if (t - v >= TOUCH_EVERY_MS) touchedAt.delete(k);
      }
      touchedAt.set(id, t);
      await db
        .update(users)
        .set({ lastActiveAt: sql`now()` })
        .where(and(eq(users.id, id), lt(users.lastActiveAt, sql`now() - interval '5 minutes'`)));
    },
    async setPremium(id: string, premium: boolean): Promise<void> {
      await db.update(users).set({ premium }).where(eq(users.id, id));
    },
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;
