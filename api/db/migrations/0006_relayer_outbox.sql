-- Relayer throughput and crash safety (issue 9): a shared nonce counter, an outbox of signed
-- transactions (recorded before broadcast), and API-process liveness for stale Idempotency-Key claims.
-- Hand-written; keep statements separated by breakpoints.
CREATE TABLE IF NOT EXISTS "api"."api_instances" (
	"id" uuid PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api"."idempotency_keys" ADD COLUMN IF NOT EXISTS "owner" uuid;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."relayer_nonces" (
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	CONSTRAINT "relayer_nonces_pk" PRIMARY KEY ("chain_id", "address")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."relayer_outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"hash" text NOT NULL,
	"raw" text NOT NULL,
	"fn" text NOT NULL,
	"status" text NOT NULL,
	"scope" text,
	"key" text,
	"request_hash" text,
	"seq" integer,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "relayer_outbox_request_idx" ON "api"."relayer_outbox" ("scope", "key", "request_hash", "seq");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "relayer_outbox_pending_idx" ON "api"."relayer_outbox" ("chain_id", "address", "nonce") WHERE "status" IN ('signed', 'sent');
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "relayer_outbox_hash_idx" ON "api"."relayer_outbox" ("hash");
