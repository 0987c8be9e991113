// Off-chain tables of webhooks, schema "api". SQL: migrations/0009_webhooks.sql.
import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { api, users } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const webhookEndpoints = api.table(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** The owner's address, lowercase: journal entries name parties by address. */
    ownerAddress: text("owner_address").notNull(),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    /** `whsec_<base64>`: needed in clear to sign (an HMAC key, not a password). */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: ts("previous_secret_expires_at"),
    disabledAt: ts("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** The journal's newest id at registration: only later entries are delivered (no backfill of history). */
    fromJournalId: bigint("from_journal_id", { mode: "bigint" }).notNull().default(sql`0`),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_owner_idx").on(t.ownerAddress), index("webhook_endpoints_user_idx").on(t.userId, t.createdAt)],
);

/** The outbox: one row per (endpoint, journal entry); `messageId` is the `webhook-id` of every attempt. */
export const webhookDeliveries = api.table(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    messageId: text("message_id").notNull(),
    journalId: bigint("journal_id", { mode: "bigint" }).notNull(),
    event: text("event").notNull(),
    /** The exact JSON sent: every retry carries the same bytes. */
    body: text("body").notNull(),
    /** pending (incl. waiting for a retry) | succeeded | failed (gave up) */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: ts("next_attempt_at").notNull().defaultNow(),
    /** Set while one API copy is sending it; another copy may take it over only after it lapses. */
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once_idx").on(t.endpointId, t.journalId),
    index("webhook_deliveries_pending_idx").on(t.endpointId, t.journalId).where(sql`"status" = 'pending'`),
  ],
);

export const webhookAttempts = api.table(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    deliveryId: uuid("delivery_id").notNull().references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    /** succeeded | failed (will retry) | gave_up */
    status: text("status").notNull(),
    responseCode: integer("response_code"),
    durationMs: integer("duration_ms").notNull(),
    error: text("error"),
    nextAttemptAt: ts("next_attempt_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_attempts_endpoint_idx").on(t.endpointId, t.id)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
