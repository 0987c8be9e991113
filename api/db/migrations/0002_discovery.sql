-- Feed, search, nearby, presence (issue 7): tables of this area in schema "api". Hand-written; keep statements separated by breakpoints.
-- Full-text search over the API's mission details: title (A), tags (B), description + category (C).
ALTER TABLE "api"."mission_details" ADD COLUMN IF NOT EXISTS "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') ||
  setweight(to_tsvector('english'::regconfig, coalesce("metadata"->>'tags', '')), 'B') ||
  setweight(to_tsvector('english'::regconfig, coalesce("description", '') || ' ' || coalesce("category", '')), 'C')
) STORED;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mission_details_search_idx" ON "api"."mission_details" USING gin ("search_vector");
--> statement-breakpoint
-- Bounding-box prefilter of /missions/nearby (exact haversine afterwards).
CREATE INDEX IF NOT EXISTS "mission_details_lat_lng_idx" ON "api"."mission_details" ("latitude", "longitude") WHERE "latitude" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."discovery_events" (
  "id" bigserial PRIMARY KEY,
  "user_id" uuid NOT NULL REFERENCES "api"."users"("id") ON DELETE CASCADE,
  "kind" text NOT NULL,
  "mission_id" text,
  "category" text,
  "query" text,
  "dwell_ms" integer NOT NULL DEFAULT 0,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_events_user_idx" ON "api"."discovery_events" ("user_id", "created_at");
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."location_history" (
  "id" bigserial PRIMARY KEY,
  "user_id" uuid NOT NULL REFERENCES "api"."users"("id") ON DELETE CASCADE,
  "mission_id" text NOT NULL,
  "latitude" double precision NOT NULL,
  "longitude" double precision NOT NULL,
  "accuracy" double precision NOT NULL,
  "distance" double precision NOT NULL,
  "verified" boolean NOT NULL,
  "created_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "location_history_created_idx" ON "api"."location_history" ("created_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "location_history_user_idx" ON "api"."location_history" ("user_id", "created_at");
