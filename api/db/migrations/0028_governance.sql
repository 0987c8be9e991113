CREATE TABLE "api"."governance_proposals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"proposer" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"choices" jsonb NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api"."governance_votes" (
	"proposal_id" uuid NOT NULL,
	"voter" text NOT NULL,
	"choice" text NOT NULL,
	"signature" text NOT NULL,
	"voted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "governance_votes_proposal_id_voter_pk" PRIMARY KEY("proposal_id","voter")
);
--> statement-breakpoint
ALTER TABLE "api"."governance_votes" ADD CONSTRAINT "governance_votes_proposal_id_governance_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "api"."governance_proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_proposals_created_idx" ON "api"."governance_proposals" USING btree ("created_at");