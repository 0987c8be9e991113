-- Every broadcast of a relayer transaction that was replaced (same nonce, higher fees): the first
-- broadcast and each replacement, with its fees. The outbox row carries the latest one.
CREATE TABLE IF NOT EXISTS "api"."relayer_broadcasts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"outbox_id" bigint NOT NULL,
	"hash" text NOT NULL,
	"raw" text NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api"."relayer_broadcasts" ADD CONSTRAINT "relayer_broadcasts_outbox_id_relayer_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "api"."relayer_outbox"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "relayer_broadcasts_hash_idx" ON "api"."relayer_broadcasts" USING btree ("hash");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "relayer_broadcasts_outbox_idx" ON "api"."relayer_broadcasts" USING btree ("outbox_id");
