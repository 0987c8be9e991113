ALTER TABLE "api"."mission_details" ADD COLUMN "min_reputation" integer;--> statement-breakpoint
ALTER TABLE "api"."mission_details" ADD COLUMN "premium" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api"."discovery_missions" ADD COLUMN "min_reputation" integer;--> statement-breakpoint
ALTER TABLE "api"."discovery_missions" ADD COLUMN "premium" boolean DEFAULT false NOT NULL;