// Inputs of the notification routes (and the preferences' shape): the routes validate with them and the
// notifications service takes what they infer.
import { z } from "@hono/zod-openapi";
import { NOTIFICATION_TYPES } from "../../services/notification-rules.ts";

const boolQuery = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

export const Preferences = z
  .object({
    pushEnabled: z.boolean(),
    emailEnabled: z.boolean(),
    missionUpdates: z.boolean(),
    guildUpdates: z.boolean(),
    xpUpdates: z.boolean(),
    marketingUpdates: z.boolean(),
    ratingUpdates: z.boolean().openapi({ description: "Extension: RATING_RECEIVED (off by default)" }),
  })
  .openapi("NotificationPreferences");

export const NotificationListQuery = z.object({
  unreadOnly: boolQuery.optional(),
  type: z.enum(NOTIFICATION_TYPES).optional(),
  skip: z.coerce.number().int().min(0).default(0),
  take: z.coerce.number().int().min(1).max(100).default(50),
});

export const PreferencesPatch = Preferences.partial().strict().refine((v) => Object.keys(v).length > 0, "send at least one preference");

export const RegisterDeviceBody = z.discriminatedUnion("platform", [
  z.object({ platform: z.literal("ios"), token: z.string().min(1).max(4096) }).strict(),
  z.object({ platform: z.literal("android"), token: z.string().min(1).max(4096) }).strict(),
  z
    .object({
      platform: z.literal("web"),
      subscription: z.object({
        endpoint: z.string().url().max(2048).refine((u) => /^https?:\/\//.test(u), "must be an http(s) URL"),
        expirationTime: z.number().nullable().optional(),
        keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(256) }),
      }),
    })
    .strict(),
]);
