CREATE SCHEMA IF NOT EXISTS "api";
--> statement-breakpoint
CREATE TABLE "api"."auth_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"domain" text NOT NULL,
	"message" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "api"."dispute_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"on_chain_id" text NOT NULL,
	"on_chain_dispute_id" text,
	"initiator_id" uuid,
	"reason" text NOT NULL,
	"evidence" text,
	"reason_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispute_records_reason_hash_unique" UNIQUE("reason_hash")
);
--> statement-breakpoint
CREATE TABLE "api"."idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "api"."mission_details" (
	"details_hash" text PRIMARY KEY NOT NULL,
	"on_chain_id" text,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"radius" double precision,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"salt" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api"."mission_proofs" (
	"proof_hash" text PRIMARY KEY NOT NULL,
	"on_chain_id" text NOT NULL,
	"proof_type" text NOT NULL,
	"proof_data" text NOT NULL,
	"notes" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api"."rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api"."users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"evm_address" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"avatar" text DEFAULT '' NOT NULL,
	"solana_address" text,
	"premium" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_evm_address_unique" UNIQUE("evm_address")
);
--> statement-breakpoint
CREATE TABLE "api"."vaults" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"permissions" jsonb NOT NULL,
	"initialized_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_synced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api"."dispute_records" ADD CONSTRAINT "dispute_records_initiator_id_users_id_fk" FOREIGN KEY ("initiator_id") REFERENCES "api"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api"."mission_details" ADD CONSTRAINT "mission_details_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "api"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api"."vaults" ADD CONSTRAINT "vaults_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "api"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_nonces_address_idx" ON "api"."auth_nonces" USING btree ("address","expires_at");--> statement-breakpoint
CREATE INDEX "idempotency_expires_idx" ON "api"."idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "mission_details_on_chain_id_idx" ON "api"."mission_details" USING btree ("on_chain_id");