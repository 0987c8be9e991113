// Notifications: creation from journal drafts (exactly once), reading, preferences, devices, push.
import type { z } from "zod";
import { AppError, validationError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { NotificationRow, NotificationsRepository } from "../repositories/notifications.repository.ts";
import type { UsersRepository } from "../repositories/users.repository.ts";
import type { NotificationListQuery, PreferencesPatch, RegisterDeviceBody } from "../routes/community/notifications.schemas.ts";
import { DEFAULT_PREFERENCES, wanted, type Draft, type Preferences } from "./notification-rules.ts";
import { endpointRefusal, type PushDelivery } from "./push-delivery.ts";

export const notificationView = (r: NotificationRow) => ({
  id: r.id,
  type: r.type,
  title: r.title,
  body: r.body,
  data: r.data as Record<string, unknown>,
  read: r.read,
  createdAt: r.createdAt.toISOString(),
});

/** The body of POST /notifications/register-device, as the route's schema validates it. */
export type DeviceRegistration = z.infer<typeof RegisterDeviceBody>;

export function notificationsService(deps: {
  repo: NotificationsRepository;
  users: UsersRepository;
  push: PushDelivery;
  logger: Logger;
  /** Devices one user may register (a new token beyond it is refused). */
  maxDevicesPerUser: number;
  /** Web Push endpoints on loopback/private/link-local addresses or plain http (local development). */
  allowPrivatePushUrls: boolean;
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
     * allow; a repeat of the same source creates nothing. Only what was newly created is queued for
     * push (with it, in one transaction); the push dispatcher sends it, never the caller.
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
      const pushTo = push.enabled ? [...prefsByAddress].filter(([, p]) => p.pushEnabled).map(([a]) => a) : [];
      const rows = await repo.insertOnce(sourceKey, journalId, allowed, createdAt, pushTo);
      return rows;
    },
    async list(address: string, q: z.infer<typeof NotificationListQuery>) {
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
    async updatePreferences(address: string, patch: z.infer<typeof PreferencesPatch>) {
      const next = { ...(await preferencesOf(address)), ...patch };
      await repo.savePreferences(address, next);
      return { success: true, preferences: next };
    },
    async registerDevice(userId: string, reg: DeviceRegistration) {
      const field = reg.platform === "web" ? "body.subscription.endpoint" : "body.token";
      if (reg.platform === "web") {
        const refusal = await endpointRefusal(reg.subscription.endpoint, deps.allowPrivatePushUrls);
        if (refusal) throw validationError([{ field, reason: refusal }]);
      }
      const device =
        reg.platform === "web"
          ? { userId, platform: "web", token: reg.subscription.endpoint, keys: reg.subscription.keys }
          : { userId, platform: reg.platform, token: reg.token, keys: null };
      const row = await repo.registerDevice(device, deps.maxDevicesPerUser);
      if (!row) {
        throw validationError([{ field, reason: `device limit reached: at most ${deps.maxDevicesPerUser} devices per user (an already registered token may be registered again)` }]);
      }
      logger.debug("device registered", { userId, platform: row.platform });
      return { success: true, deviceId: row.id, platform: row.platform, pushDelivery: push.enabled };
    },
  };
}
export type NotificationsService = ReturnType<typeof notificationsService>;
