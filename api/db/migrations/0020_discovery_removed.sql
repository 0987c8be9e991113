-- What an in-memory copy of the read model (the feed index, api/services/discovery/feed-index.ts) needs
-- besides `change_seq` to follow it exactly: the missions that left it, numbered from the same sequence
-- (in commit order: writers hold the read model's write lock), and the rebuild's marker (mission_id NULL:
-- reload). Hand-written after drizzle-kit's CREATE TABLE; the snapshot is 0020.
CREATE TABLE IF NOT EXISTS "api"."discovery_removed" (
	"seq" bigint PRIMARY KEY DEFAULT nextval('"api"."discovery_change_seq"') NOT NULL,
	"mission_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_removed_at_idx" ON "api"."discovery_removed" USING btree ("at");
--> statement-breakpoint
-- A rebuild deletes every row and writes the marker itself (discovery-read-model.repository.ts).
CREATE OR REPLACE FUNCTION "api"."discovery_missions_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('discovery.rebuild', true) = 'on' THEN RETURN NULL; END IF;
  INSERT INTO "api"."discovery_removed" (mission_id) VALUES (OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_missions_removed" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_missions_removed" AFTER DELETE ON "api"."discovery_missions"
  FOR EACH ROW EXECUTE FUNCTION "api"."discovery_missions_removed"();
--> statement-breakpoint
-- The SQL threshold plan of 0019 is gone (the feed index ranks by relevance): its key indexes only cost writes.
DROP INDEX IF EXISTS "api"."discovery_missions_feed_k1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "api"."discovery_missions_feed_k2_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "api"."discovery_missions_feed_geo_k1_idx";
--> statement-breakpoint
DROP INDEX IF EXISTS "api"."discovery_missions_feed_geo_k2_idx";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "api"."feed_k2"(numeric, integer, integer, bigint);
--> statement-breakpoint
DROP FUNCTION IF EXISTS "api"."feed_k1"(numeric, integer, integer);
