import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { NOTIFICATION_TYPES } from "../../services/notification-rules.ts";
import { NotificationListQuery, Preferences, PreferencesPatch, RegisterDeviceBody } from "./notifications.schemas.ts";

const tags = ["Notifications"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };
const errs = errorResponses(400, 401, 429);

export const Notification = z
  .object({
    id: z.string(),
    type: z.enum(NOTIFICATION_TYPES),
    title: z.string(),
    body: z.string(),
    data: z.record(z.string(), z.unknown()),
    read: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("Notification");

export const list = createRoute({
  method: "get", path: "/notifications", operationId: "listNotifications", tags, summary: "The caller's notifications, newest first", ...auth,
  request: {
    query: NotificationListQuery,
  },
  responses: {
    200: json(z.object({ notifications: z.array(Notification), unreadCount: z.number(), total: z.number() }), "A page"),
    ...errs,
  },
});

export const read = createRoute({
  method: "post", path: "/notifications/{id}/read", operationId: "markNotificationRead", tags, summary: "Mark one notification read", ...auth,
  request: { params: z.object({ id: z.string().uuid() }) },
  responses: { 200: json(z.object({ success: z.boolean(), notification: Notification }), "Marked"), ...errorResponses(400, 401, 404, 429) },
});

export const readAll = createRoute({
  method: "post", path: "/notifications/read-all", operationId: "markAllNotificationsRead", tags, summary: "Mark all notifications read", ...auth,
  responses: { 200: json(z.object({ success: z.boolean(), updated: z.number() }), "Marked"), ...errs },
});

export const unreadCount = createRoute({
  method: "get", path: "/notifications/unread-count", operationId: "getUnreadNotificationCount", tags, summary: "Number of unread notifications", ...auth,
  responses: { 200: json(z.object({ count: z.number() }), "Count"), ...errs },
});

export const readPreferences = createRoute({
  method: "get", path: "/notifications/preferences", operationId: "getNotificationPreferences", tags, summary: "The preference booleans (also the vault's notifications permissions)", ...auth,
  responses: { 200: json(Preferences, "Every preference, defaults included"), ...errs },
});

export const preferences = createRoute({
  method: "patch", path: "/notifications/preferences", operationId: "updateNotificationPreferences", tags, summary: "Update any subset of the preference booleans", ...auth,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: PreferencesPatch,
        },
      },
    },
  },
  responses: { 200: json(z.object({ success: z.boolean(), preferences: Preferences }), "The full preferences after the update"), ...errs },
});

export const registerDevice = createRoute({
  method: "post", path: "/notifications/register-device", operationId: "registerDevice", tags, summary: "Register a push token (ios/android) or Web Push subscription", ...auth,
  request: { body: { required: true, content: { "application/json": { schema: RegisterDeviceBody } } } },
  responses: {
    200: json(z.object({ success: z.boolean(), deviceId: z.string(), platform: z.string(), pushDelivery: z.boolean() }), "Registered (idempotent per token)"),
    ...errs,
  },
});
