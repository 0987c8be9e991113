-- The search side of the read model: per mission with a text vector, only what /feed/search filters
-- and orders its matches by. A common term matches a quarter of the missions and ts_rank reads every
-- match's row: on the read model's rows (~650 bytes, geometry and display columns included) the heap
-- pages, not the ranking, set the time. Kept by statement triggers on api.discovery_missions (writers
-- hold the read model's write lock), like discovery_cells. Hand-written after drizzle-kit's CREATE
-- TABLE (triggers, GIN); the snapshot is 0021.
CREATE TABLE IF NOT EXISTS "api"."discovery_search" (
	"id" text PRIMARY KEY NOT NULL,
	"details_created_at" timestamp with time zone,
	"state" text NOT NULL,
	"category_lc" text,
	"guild_uuid" text,
	"details_hash" text NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
-- Rows without a vector never match (@@ of NULL), so they are not kept. An update rewrites a row only
-- when one of its columns changed (ratings, performer and the like leave it alone).
CREATE OR REPLACE FUNCTION "api"."discovery_search_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- (A transition table exists only in the branch of its operation: old_rows is unknown to an INSERT.)
  IF TG_OP = 'DELETE' THEN
    DELETE FROM api.discovery_search s USING old_rows o WHERE s.id = o.id;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO api.discovery_search AS s (id, details_created_at, state, category_lc, guild_uuid, details_hash, search_vector)
      SELECT n.id, n.details_created_at, n.state, n.category_lc, n.guild_uuid, n.details_hash, n.search_vector
        FROM new_rows n WHERE n.search_vector IS NOT NULL
      ON CONFLICT (id) DO UPDATE SET
        details_created_at = excluded.details_created_at, state = excluded.state, category_lc = excluded.category_lc,
        guild_uuid = excluded.guild_uuid, details_hash = excluded.details_hash, search_vector = excluded.search_vector;
  ELSE
    DELETE FROM api.discovery_search s USING new_rows n WHERE s.id = n.id AND n.search_vector IS NULL;
    INSERT INTO api.discovery_search AS s (id, details_created_at, state, category_lc, guild_uuid, details_hash, search_vector)
      SELECT n.id, n.details_created_at, n.state, n.category_lc, n.guild_uuid, n.details_hash, n.search_vector
        FROM new_rows n
       WHERE n.search_vector IS NOT NULL
         AND NOT EXISTS (
               SELECT 1 FROM old_rows o
                WHERE o.id = n.id
                  AND (o.details_created_at, o.state, o.category_lc, o.guild_uuid, o.details_hash, o.search_vector)
                      IS NOT DISTINCT FROM (n.details_created_at, n.state, n.category_lc, n.guild_uuid, n.details_hash, n.search_vector))
      ON CONFLICT (id) DO UPDATE SET
        details_created_at = excluded.details_created_at, state = excluded.state, category_lc = excluded.category_lc,
        guild_uuid = excluded.guild_uuid, details_hash = excluded.details_hash, search_vector = excluded.search_vector;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_insert" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_insert" AFTER INSERT ON "api"."discovery_missions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_update" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_update" AFTER UPDATE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_search_delete" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_search_delete" AFTER DELETE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_search_apply"();
--> statement-breakpoint
-- Existing rows, then the index (one bulk build instead of a million inserts into it).
INSERT INTO "api"."discovery_search" (id, details_created_at, state, category_lc, guild_uuid, details_hash, search_vector)
  SELECT id, details_created_at, state, category_lc, guild_uuid, details_hash, search_vector
    FROM "api"."discovery_missions" WHERE search_vector IS NOT NULL
  ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_search_vector_idx" ON "api"."discovery_search" USING gin ("search_vector");
