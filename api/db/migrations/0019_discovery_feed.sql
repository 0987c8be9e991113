-- The personal feed without scoring every open mission (api/repositories/discovery-feed.repository.ts).
-- Hand-written after drizzle-kit's CREATE TABLE (functions, expression indexes, triggers); the snapshot is 0019.
CREATE TABLE IF NOT EXISTS "api"."discovery_totals" (
	"category_key" text NOT NULL,
	"guild_key" text NOT NULL,
	"open_count" integer NOT NULL,
	CONSTRAINT "discovery_totals_category_key_guild_key_pk" PRIMARY KEY("category_key","guild_key")
);
--> statement-breakpoint
-- The mission's static part of the feed score: 0.25 * reward score + 0.1 * poster reputation score
-- (api/services/discovery/feed-scoring.ts, same float8 operations as the feed's SQL). With the urgency
-- term, 0.2 * max(0, 1 - (expires_at - now) / 604800), the static part A of a mission's score is
-- max(k1, k2 + 0.2 * (1 + now / 604800)), and A plus the most the reader-dependent terms can add
-- (distance, xp match, category) bounds its score: the feed reads only the missions whose bound
-- reaches its page, from the two indexes below. The weights are those of WEIGHTS; the repository
-- checks that they still match before it prunes.
CREATE OR REPLACE FUNCTION "api"."feed_k1"(reward numeric, rating_sum integer, rating_count integer) RETURNS double precision
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN 0.25::float8 * least(1::float8, greatest(0::float8, log(1 + reward::float8 / 1e6) / log(1001::float8)))
       + 0.1::float8 * CASE WHEN rating_count > 0
                           THEN least(1::float8, greatest(0::float8, (rating_sum::float8 / rating_count - 1) / 4))
                           ELSE 0.5::float8 END;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "api"."feed_k2"(reward numeric, rating_sum integer, rating_count integer, expires_at bigint) RETURNS double precision
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN "api"."feed_k1"(reward, rating_sum, rating_count) - 0.2::float8 * expires_at::float8 / 604800;
--> statement-breakpoint
-- Open missions outside any guild (every reader may take them), by each key, best first.
CREATE INDEX IF NOT EXISTS "discovery_missions_feed_k1_idx" ON "api"."discovery_missions"
  ("api"."feed_k1"("reward", "rating_sum", "rating_count") DESC) WHERE "state" = 'Open' AND "guild_uuid" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_feed_k2_idx" ON "api"."discovery_missions"
  ("api"."feed_k2"("reward", "rating_sum", "rating_count", "expires_at") DESC) WHERE "state" = 'Open' AND "guild_uuid" IS NULL;
--> statement-breakpoint
-- The same keys next to the point, for the missions within 50 km of the reader (whose distance term may
-- be up to 0.2): one GiST scan prunes by both the box and the key.
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_feed_geo_k1_idx" ON "api"."discovery_missions" USING gist
  ("geo", "api"."feed_k1"("reward", "rating_sum", "rating_count")) WHERE "state" = 'Open' AND "guild_uuid" IS NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_feed_geo_k2_idx" ON "api"."discovery_missions" USING gist
  ("geo", "api"."feed_k2"("reward", "rating_sum", "rating_count", "expires_at")) WHERE "state" = 'Open' AND "guild_uuid" IS NULL;
--> statement-breakpoint
-- A guild's open missions (the reader's guilds are scored whole; the guild filter).
CREATE INDEX IF NOT EXISTS "discovery_missions_open_guild_idx" ON "api"."discovery_missions" ("guild_uuid") WHERE "state" = 'Open' AND "guild_uuid" IS NOT NULL;
--> statement-breakpoint
-- Totals per (category, guild): statement triggers like discovery_cells (0018).
CREATE OR REPLACE FUNCTION "api"."discovery_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO api.discovery_totals AS t (category_key, guild_key, open_count)
      SELECT coalesce(category_lc, ''), coalesce(guild_uuid, ''), count(*) FROM new_rows WHERE state = 'Open' GROUP BY 1, 2
      ON CONFLICT (category_key, guild_key) DO UPDATE SET open_count = t.open_count + excluded.open_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO api.discovery_totals AS t (category_key, guild_key, open_count)
      SELECT coalesce(category_lc, ''), coalesce(guild_uuid, ''), -count(*) FROM old_rows WHERE state = 'Open' GROUP BY 1, 2
      ON CONFLICT (category_key, guild_key) DO UPDATE SET open_count = t.open_count + excluded.open_count;
  ELSE
    INSERT INTO api.discovery_totals AS t (category_key, guild_key, open_count)
      SELECT c, g, sum(d) FROM (
        SELECT coalesce(category_lc, '') AS c, coalesce(guild_uuid, '') AS g, -1 AS d FROM old_rows WHERE state = 'Open'
        UNION ALL
        SELECT coalesce(category_lc, ''), coalesce(guild_uuid, ''), 1 FROM new_rows WHERE state = 'Open') x
       GROUP BY 1, 2 HAVING sum(d) <> 0
      ON CONFLICT (category_key, guild_key) DO UPDATE SET open_count = t.open_count + excluded.open_count;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_totals_insert" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_totals_insert" AFTER INSERT ON "api"."discovery_missions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_totals_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_totals_update" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_totals_update" AFTER UPDATE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_totals_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_totals_delete" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_totals_delete" AFTER DELETE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_totals_apply"();
--> statement-breakpoint
-- Existing rows.
INSERT INTO "api"."discovery_totals" (category_key, guild_key, open_count)
  SELECT coalesce(category_lc, ''), coalesce(guild_uuid, ''), count(*) FROM "api"."discovery_missions" WHERE state = 'Open' GROUP BY 1, 2
  ON CONFLICT (category_key, guild_key) DO NOTHING;
