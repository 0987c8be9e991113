// Notifications: creation from journal drafts (exactly once), reading, preferences, devices, push.
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { NotificationRow, NotificationsRepository } from "../repositories/notifications.repository.ts";
import type { UsersRepository } from "../repositories/users.repository.ts";
import { DEFAULT_PREFERENCES, wanted, type Draft, type NotificationType, type Preferences } from "./notification-rules.ts";
import type { PushDelivery } from "./push-delivery.ts";

export const notificationView = (r: NotificationRow) => ({
  id: r.id,
  type: r.type,
  title: r.title,
  body: r.body,
  data: r.data as Record<string, unknown>,
  read: r.read,
  createdAt: r.createdAt.toISOString(),
});

export type DeviceRegistration =
  | { platform: "ios" | "android"; token: string }
  | { platform: "web"; subscription: { endpoint: string; keys: { p256dh: string; auth: string } } };

export function notificationsService(deps: {
  repo: NotificationsRepository;
  users: UsersRepository;
  push: PushDelivery;
  logger: Logger;
}) {
  const { repo, users, push, logger } = deps;

  async function preferencesOf(address: string): Promise<Preferences> {
    return { ...DEFAULT_PREFERENCES, ...((await repo.preferences(address)) ?? {}) };
  }

  /** Resolves an address to the user id if the address has an account (else the address itself). */
  async function userIdOr(address: string | null): Promise<string | null> {
    if (!address) return null;
    return (await users.findByAddress(address))?.id ?? address;
  }

  return {
    preferencesOf,
    /**
     * Creates the drafts of one source (journal id or off-chain key) that the recipients' preferences
     * allow; a repeat of the same source creates nothing. Pushes only what was newly created.
     */
    async create(sourceKey: string, journalId: bigint | null, drafts: Draft[], createdAt?: Date): Promise<NotificationRow[]> {
      const allowed: Draft[] = [];
      const prefsByAddress = new Map<string, Preferences>();
      for (const d of drafts) {
        const prefs = prefsByAddress.get(d.address) ?? (await preferencesOf(d.address));
        prefsByAddress.set(d.address, prefs);
        if (!wanted(d.type, prefs)) continue;
        const data = { ...d.data };
        if ("performerAddress" in data) data.performerId = await userIdOr(data.performerAddress as string | null);
        allowed.push({ ...d, data });
      }
      const rows = await repo.insertOnce(sourceKey, journalId, allowed, createdAt);
      if (push.enabled) {
        for (const row of rows) {
          if (!prefsByAddress.get(row.address)?.pushEnabled) continue;
          for (const device of await repo.devicesOfAddress(row.address)) {
            const result = await push.deliver(device, notificationView(row));
            if (result === "gone") await repo.deleteDevice(device.id);
          }
        }
      }
      return rows;
    },
    async list(address: string, q: { unreadOnly?: boolean; type?: NotificationType; skip: number; take: number }) {
      const { rows, total, unreadCount } = await repo.list(address, q);
      return { notifications: rows.map(notificationView), unreadCount, total };
    },
    unreadCount: async (address: string) => ({ count: await repo.unreadCount(address) }),
    async markRead(address: string, id: string) {
      const row = await repo.markRead(address, id);
      if (!row) throw new AppError("NOT_FOUND", "Notification not found");
      return { success: true, notification: notificationView(row) };
    },
    async markAllRead(address: string) {
      return { success: true, updated: await repo.markAllRead(address) };
    },
    async updatePreferences(address: string, patch: Partial<Preferences>) {
      const next = { ...(await preferencesOf(address)), ...patch };
      await repo.savePreferences(address, next);
      return { success: true, preferences: next };
    },
    async registerDevice(userId: string, reg: DeviceRegistration) {
      const row =
        reg.platform === "web"
          ? await repo.registerDevice({ userId, platform: "web", token: reg.subscription.endpoint, keys: reg.subscription.keys })
          : await repo.registerDevice({ userId, platform: reg.platform, token: reg.token, keys: null });
      logger.debug("device registered", { userId, platform: row.platform });
      return { success: true, deviceId: row.id, platform: row.platform, pushDelivery: push.enabled };
    },
  };
}
export type NotificationsService = ReturnType<typeof notificationsService>;
