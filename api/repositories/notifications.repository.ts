// Notifications, preferences and device tokens (schema "api"). Only DB code.
import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { deviceTokens, notificationPreferences, notifications } from "../db/community.schema.ts";
import type { Draft, NotificationType, Preferences } from "../services/notification-rules.ts";

/** The channel the push outbox's writers notify at commit (api/repositories/push.repository.ts listens). */
export const PUSH_WAKE_CHANNEL = "push_deliveries";

export type NotificationRow = typeof notifications.$inferSelect;
export type DeviceTokenRow = typeof deviceTokens.$inferSelect;

export function notificationsRepository(db: Db) {
  return {
    /**
     * Inserts once per (sourceKey, address, type); returns the rows actually inserted. In the same
     * transaction each new row of an address in `pushTo` gets one push outbox row per web device of
     * its owner (migration 0024), so a notification and its pushes exist together or not at all.
     */
    async insertOnce(sourceKey: string, journalId: bigint | null, drafts: Draft[], createdAt?: Date, pushTo: string[] = []): Promise<NotificationRow[]> {
      if (drafts.length === 0) return [];
      const insert = (q: Pick<Db, "insert">) =>
        q.insert(notifications)
          .values(drafts.map((d) => ({ ...d, sourceKey, journalId, ...(createdAt ? { createdAt } : {}) })))
          .onConflictDoNothing()
          .returning();
      if (!drafts.some((d) => pushTo.includes(d.address))) return insert(db);
      return db.transaction(async (tx) => {
        const rows = await insert(tx);
        const push = rows.filter((r) => pushTo.includes(r.address));
        if (push.length > 0) {
          const queued = await tx.execute(sql`
            INSERT INTO api.push_deliveries (notification_id, device_id, user_id)
            SELECT n.id, d.id, d.user_id
              FROM api.notifications n
              JOIN api.users u ON u.evm_address = n.address
              JOIN api.device_tokens d ON d.user_id = u.id AND d.platform = 'web'
             WHERE n.id IN (${sql.join(push.map((r) => sql`${r.id}::uuid`), sql`, `)})
            ON CONFLICT DO NOTHING`);
          // Sent at commit to every copy's push dispatcher (LISTEN ${PUSH_WAKE_CHANNEL}).
          if (queued.rowCount) await tx.execute(sql`SELECT pg_notify(${PUSH_WAKE_CHANNEL}, '')`);
        }
        return rows;
      });
    },
    async list(address: string, f: { unreadOnly?: boolean; type?: NotificationType; skip: number; take: number }) {
      const where = and(
        eq(notifications.address, address),
        f.unreadOnly ? eq(notifications.read, false) : undefined,
        f.type ? eq(notifications.type, f.type) : undefined,
      );
      const [rows, [total], [unread]] = await Promise.all([
        db.select().from(notifications).where(where).orderBy(desc(notifications.createdAt), sql`${notifications.journalId} DESC NULLS LAST`, desc(notifications.id)).offset(f.skip).limit(f.take),
        db.select({ n: count() }).from(notifications).where(where),
        db.select({ n: count() }).from(notifications).where(and(eq(notifications.address, address), eq(notifications.read, false))),
      ]);
      return { rows, total: Number(total?.n ?? 0), unreadCount: Number(unread?.n ?? 0) };
    },
    async unreadCount(address: string): Promise<number> {
      const [r] = await db.select({ n: count() }).from(notifications).where(and(eq(notifications.address, address), eq(notifications.read, false)));
      return Number(r?.n ?? 0);
    },
    async markRead(address: string, id: string): Promise<NotificationRow | null> {
      const [row] = await db.update(notifications).set({ read: true }).where(and(eq(notifications.id, id), eq(notifications.address, address))).returning();
      return row ?? null;
    },
    async markAllRead(address: string): Promise<number> {
      const rows = await db.update(notifications).set({ read: true }).where(and(eq(notifications.address, address), eq(notifications.read, false))).returning({ id: notifications.id });
      return rows.length;
    },
    async deleteAll(address: string): Promise<number> {
      return (await db.delete(notifications).where(eq(notifications.address, address)).returning({ id: notifications.id })).length;
    },
    async preferences(address: string): Promise<Partial<Preferences> | null> {
      const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.address, address)).limit(1);
      if (!row) return null;
      const { address: _a, updatedAt: _u, ...prefs } = row;
      return prefs;
    },
    async savePreferences(address: string, prefs: Preferences): Promise<void> {
      await db
        .insert(notificationPreferences)
        .values({ address, ...prefs })
        .onConflictDoUpdate({ target: notificationPreferences.address, set: { ...prefs, updatedAt: sql`now()` } });
    },
    async deletePreferences(address: string): Promise<number> {
      return (await db.delete(notificationPreferences).where(eq(notificationPreferences.address, address)).returning()).length;
    },
    /**
     * Registers (or refreshes) a device unless its owner already has `max` others: the owner's user row
     * is locked first, so two registrations at once cannot both take the last place.
     */
    async registerDevice(d: { userId: string; platform: string; token: string; keys: unknown }, max: number): Promise<DeviceTokenRow | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1 FROM api.users WHERE id = ${d.userId} FOR UPDATE`);
        const [n] = await tx
          .select({ n: count() })
          .from(deviceTokens)
          .where(and(eq(deviceTokens.userId, d.userId), ne(deviceTokens.token, d.token)));
        if (Number(n?.n ?? 0) >= max) return null;
        const [row] = await tx
          .insert(deviceTokens)
          .values(d)
          .onConflictDoUpdate({ target: [deviceTokens.userId, deviceTokens.token], set: { platform: d.platform, keys: d.keys } })
          .returning();
        return row!;
      });
    },
    async devicesOfUser(userId: string): Promise<DeviceTokenRow[]> {
      return db.select().from(deviceTokens).where(eq(deviceTokens.userId, userId));
    },
    async deleteDevices(userId: string): Promise<number> {
      return (await db.delete(deviceTokens).where(eq(deviceTokens.userId, userId)).returning({ id: deviceTokens.id })).length;
    },
    async deleteDevice(id: string): Promise<void> {
      await db.delete(deviceTokens).where(eq(deviceTokens.id, id));
    },
  };
}
export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
