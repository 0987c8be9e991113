-- Disputes and resolvers (issue 6): tables of this area in schema "api". Hand-written; keep statements separated by breakpoints.
CREATE TABLE IF NOT EXISTS "api"."dispute_evidence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispute_on_chain_id" text NOT NULL,
	"side" text NOT NULL,
	"evidence_hash" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"uploaded_by" uuid REFERENCES "api"."users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "dispute_evidence_lookup_idx" ON "api"."dispute_evidence" ("dispute_on_chain_id", "side", "evidence_hash");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."dispute_resolutions" (
	"resolution_hash" text PRIMARY KEY NOT NULL,
	"dispute_on_chain_id" text NOT NULL,
	"resolution" text NOT NULL,
	"salt" text NOT NULL,
	"author_id" uuid REFERENCES "api"."users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
