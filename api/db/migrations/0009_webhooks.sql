-- Webhook endpoints, their outbox of deliveries (one row per endpoint and journal entry: the
-- exactly-once key) and the log of delivery attempts.
CREATE TABLE IF NOT EXISTS "api"."webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "api"."users"("id") ON DELETE CASCADE,
	"owner_address" text NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"from_journal_id" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_owner_idx" ON "api"."webhook_endpoints" ("owner_address");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_user_idx" ON "api"."webhook_endpoints" ("user_id", "created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL REFERENCES "api"."webhook_endpoints"("id") ON DELETE CASCADE,
	"message_id" text NOT NULL,
	"journal_id" bigint NOT NULL,
	"event" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "webhook_deliveries_once_idx" ON "api"."webhook_deliveries" ("endpoint_id", "journal_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_deliveries_pending_idx" ON "api"."webhook_deliveries" ("endpoint_id", "journal_id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL REFERENCES "api"."webhook_deliveries"("id") ON DELETE CASCADE,
	"endpoint_id" uuid NOT NULL REFERENCES "api"."webhook_endpoints"("id") ON DELETE CASCADE,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"response_code" integer,
	"duration_ms" integer NOT NULL,
	"error" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_attempts_endpoint_idx" ON "api"."webhook_attempts" ("endpoint_id", "id");
