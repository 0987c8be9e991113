-- Users, ratings, XP, NFTs (issue 5): tables of this area in schema "api". Hand-written; keep statements separated by breakpoints.
-- Off-chain part of a rating: the comment text (the chain holds only its hash) and the attestation's receipt.
CREATE TABLE IF NOT EXISTS "api"."ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mission_id" text NOT NULL,
	"mission_on_chain_id" text NOT NULL,
	"rater" text NOT NULL,
	"ratee" text NOT NULL,
	"score" integer NOT NULL,
	"comment" text NOT NULL,
	"comment_hash" text NOT NULL,
	"signature" text,
	"eas_uid" text,
	"tx_hash" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_mission_rater_unique" UNIQUE("mission_on_chain_id","rater")
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "ratings_eas_uid_idx" ON "api"."ratings" ("eas_uid");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ratings_ratee_idx" ON "api"."ratings" ("ratee");
--> statement-breakpoint
-- One row per (account, achievement): the mint's key; `cause` is the journal entry that earned it.
CREATE TABLE IF NOT EXISTS "api"."achievement_mints" (
	"account" text NOT NULL,
	"achievement_id" integer NOT NULL,
	"cause" text NOT NULL,
	"mission_on_chain_id" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "achievement_mints_pk" PRIMARY KEY("account","achievement_id")
);
--> statement-breakpoint
-- Last builder-score refresh per address (at most one provider call per day unless forced).
CREATE TABLE IF NOT EXISTS "api"."builder_score_refreshes" (
	"address" text PRIMARY KEY NOT NULL,
	"score" integer,
	"tx_hash" text,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
