// Off-chain tables of the community area, schema "api". SQL: migrations/0004_community.sql.
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { NotificationType } from "../services/notification-rules.ts";
import { api, users } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Last journal id each reactor has handled (api/reactors/runner.ts). */
export const reactorCursors = api.table("reactor_cursors", {
  reactor: text("reactor").primaryKey(),
  lastId: bigint("last_id", { mode: "bigint" }).notNull().default(sql`0`),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Keyed by address so a user who signs in later sees what happened before. */
export const notifications = api.table(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    address: text("address").notNull(),
    type: text("type").$type<NotificationType>().notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    data: jsonb("data").notNull().default(sql`'{}'::jsonb`),
    read: boolean("read").notNull().default(false),
    /** The decimal journal id, or "invite:<uuid>" for off-chain sources: exactly once per (source, address, type). */
    sourceKey: text("source_key").notNull(),
    journalId: bigint("journal_id", { mode: "bigint" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notifications_once_idx").on(t.sourceKey, t.address, t.type),
    index("notifications_address_idx").on(t.address, t.createdAt),
  ],
);

export const notificationPreferences = api.table("notification_preferences", {
  address: text("address").primaryKey(),
  pushEnabled: boolean("push_enabled").notNull().default(true),
  emailEnabled: boolean("email_enabled").notNull().default(false),
  missionUpdates: boolean("mission_updates").notNull().default(true),
  guildUpdates: boolean("guild_updates").notNull().default(true),
  xpUpdates: boolean("xp_updates").notNull().default(true),
  marketingUpdates: boolean("marketing_updates").notNull().default(false),
  ratingUpdates: boolean("rating_updates").notNull().default(false),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const deviceTokens = api.table(
  "device_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** ios | android | web */
    platform: text("platform").notNull(),
    /** The mobile token, or the Web Push endpoint URL. */
    token: text("token").notNull(),
    /** Web Push keys { p256dh, auth }. */
    keys: jsonb("keys"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("device_tokens_user_token_idx").on(t.userId, t.token)],
);

export const vaultExportLogs = api.table(
  "vault_export_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    bytes: integer("bytes").notNull(),
    exportedAt: ts("exported_at").notNull().defaultNow(),
  },
  (t) => [index("vault_export_logs_exported_at_idx").on(t.exportedAt)],
);

export const vaultDeletions = api.table("vault_deletions", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
  categories: jsonb("categories").notNull(),
  deletedAt: ts("deleted_at").notNull().defaultNow(),
  /** The chain head when the vault was deleted; null when it was unknown (then `deletedAt` decides). */
  chainBlock: bigint("chain_block", { mode: "bigint" }),
});

/** The vault's cached summary (counts per data category), rebuilt by POST /vault/sync. */
export const vaultSummaries = api.table("vault_summaries", {
  userId: uuid("user_id").primaryKey().references(() => users.id, { onDelete: "cascade" }),
  summary: jsonb("summary").notNull(),
  syncedAt: ts("synced_at").notNull().defaultNow(),
});

/**
 * The Web Push outbox: one row per (notification, device), written in the notification's own
 * transaction (the notification is keyed by its event), sent outside the reactors by each copy's
 * push dispatcher (api/services/push-dispatcher.ts).
 */
export const pushDeliveries = api.table(
  "push_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    notificationId: uuid("notification_id").notNull().references(() => notifications.id, { onDelete: "cascade" }),
    deviceId: uuid("device_id").notNull().references(() => deviceTokens.id, { onDelete: "cascade" }),
    /** The device's owner: the claim takes one row per user at a time. */
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** pending | sent | failed */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Set while one API copy is sending it; another copy may take it over only after it lapses. */
    leaseUntil: ts("lease_until"),
    error: text("error"),
    createdAt: ts("created_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    uniqueIndex("push_deliveries_once_idx").on(t.notificationId, t.deviceId),
    index("push_deliveries_pending_idx").on(t.userId, t.createdAt, t.id).where(sql`"status" = 'pending'`),
    index("push_deliveries_finished_idx").on(t.finishedAt),
  ],
);

/**
 * Membership criteria a guild's creator set through the API (the registry has no field for them),
 * keyed by the guild's UUID (domain/ids.ts guildUuid). Join reads it before relaying.
 */
export const guildSettings = api.table("guild_settings", {
  guildId: uuid("guild_id").primaryKey(),
  /** Reputation a user needs to join; no row = no criterion. */
  minReputation: integer("min_reputation").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
