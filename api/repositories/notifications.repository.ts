// Notifications, preferences and device tokens (schema "api"). Only DB code.
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { deviceTokens, notificationPreferences, notifications } from "../db/community.schema.ts";
import type { Draft, NotificationType, Preferences } from "../services/notification-rules.ts";

export type NotificationRow = typeof notifications.$inferSelect;
export type DeviceTokenRow = typeof deviceTokens.$inferSelect;

export function notificationsRepository(db: Db) {
  return {
    /** Inserts once per (sourceKey, address, type); returns the rows actually inserted. */
    async insertOnce(sourceKey: string, journalId: bigint | null, drafts: Draft[], createdAt?: Date): Promise<NotificationRow[]> {
      if (drafts.length === 0) return [];
      return db
        .insert(notifications)
        .values(drafts.map((d) => ({ ...d, sourceKey, journalId, ...(createdAt ? { createdAt } : {}) })))
        .onConflictDoNothing()
        .returning();
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
    async registerDevice(d: { userId: string; platform: string; token: string; keys: unknown }): Promise<DeviceTokenRow> {
      const [row] = await db
        .insert(deviceTokens)
        .values(d)
        .onConflictDoUpdate({ target: [deviceTokens.userId, deviceTokens.token], set: { platform: d.platform, keys: d.keys } })
        .returning();
      return row!;
    },
    async devicesOfAddress(address: string): Promise<DeviceTokenRow[]> {
      const { rows } = await db.execute(sql`SELECT d.* FROM api.device_tokens d JOIN api.users u ON u.id = d.user_id WHERE u.evm_address = ${address}`);
      return (rows as Record<string, unknown>[]).map((r) => ({
        id: r.id as string, userId: r.user_id as string, platform: r.platform as string, token: r.token as string,
        keys: r.keys, createdAt: new Date(r.created_at as string),
      }));
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
