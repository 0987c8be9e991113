-- Guilds, notifications, vault (issue 5): tables of this area in schema "api". Hand-written; keep statements separated by breakpoints.
CREATE TABLE IF NOT EXISTS "api"."reactor_cursors" (
	"reactor" text PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL DEFAULT 0,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"address" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"source_key" text NOT NULL,
	"journal_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "notifications_once_idx" ON "api"."notifications" ("source_key", "address", "type");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "notifications_address_idx" ON "api"."notifications" ("address", "created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."notification_preferences" (
	"address" text PRIMARY KEY NOT NULL,
	"push_enabled" boolean DEFAULT true NOT NULL,
	"email_enabled" boolean DEFAULT false NOT NULL,
	"mission_updates" boolean DEFAULT true NOT NULL,
	"guild_updates" boolean DEFAULT true NOT NULL,
	"xp_updates" boolean DEFAULT true NOT NULL,
	"marketing_updates" boolean DEFAULT false NOT NULL,
	"rating_updates" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."device_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "api"."users"("id") ON DELETE CASCADE,
	"platform" text NOT NULL,
	"token" text NOT NULL,
	"keys" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "device_tokens_user_token_idx" ON "api"."device_tokens" ("user_id", "token");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."vault_export_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid REFERENCES "api"."users"("id") ON DELETE SET NULL,
	"bytes" integer NOT NULL,
	"exported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "vault_export_logs_exported_at_idx" ON "api"."vault_export_logs" ("exported_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."vault_deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid REFERENCES "api"."users"("id") ON DELETE SET NULL,
	"categories" jsonb NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."vault_summaries" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "api"."users"("id") ON DELETE CASCADE,
	"summary" jsonb NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL
);
