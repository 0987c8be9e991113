-- The discovery read model: one row per mission holding what the map, the feed and search read, so no
-- discovery query joins the details to the chain at read time. Maintained by the repository's refresh
-- (same SQL for the incremental path and the rebuild). Hand-written; keep statements separated by breakpoints.
CREATE EXTENSION IF NOT EXISTS cube;
--> statement-breakpoint
-- A point on the sphere as an earth-centred 3-D cube (metres, mean radius 6,371,008.8 m, the radius of
-- the API's haversine). The straight-line (chord) distance between two such points grows strictly with
-- the great-circle distance, so GiST `<->` orders by ground distance exactly and a radius is the exact
-- chord 2R sin(d / 2R): no projection error, no poles or antimeridian special case. Own function (not
-- earthdistance's ll_to_earth) so the index expression depends on no search_path and no other radius.
CREATE OR REPLACE FUNCTION "api"."geo_ecef"(lat double precision, lng double precision) RETURNS cube
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN cube(ARRAY[
    6371008.8 * cos(radians(lat)) * cos(radians(lng)),
    6371008.8 * cos(radians(lat)) * sin(radians(lng)),
    6371008.8 * sin(radians(lat))]);
--> statement-breakpoint
-- The centre of the point's geohash-6 cell, rounded to 1e-6 degrees: the "neighbourhood" position every
-- viewer but the mission's parties is shown (api/services/discovery/location-privacy.ts), computed as
-- the cell index (15 bits per axis) rather than by bisection: the same dyadic values, so the same doubles;
-- floor(x + 0.5) rounds ties up like JavaScript's Math.round (round() would round them away from zero).
CREATE OR REPLACE FUNCTION "api"."cell6_center"(deg double precision, span double precision) RETURNS double precision
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN floor((-span + (least(32767, floor((deg + span) / (2 * span / 32768))) + 0.5) * (2 * span / 32768)) * 1e6 + 0.5) / 1e6;
--> statement-breakpoint
-- Bumped on every change of a row: the real-time change feed's order and catch-up cursor.
CREATE SEQUENCE IF NOT EXISTS "api"."discovery_change_seq";
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."discovery_missions" (
  "id" text PRIMARY KEY,
  "on_chain_id" numeric(78, 0) NOT NULL,
  "poster" text NOT NULL,
  "performer" text,
  "state" text NOT NULL,
  "guild_uuid" text,
  "reward" numeric(78, 0) NOT NULL,
  "expires_at" bigint NOT NULL,
  "created_at" bigint NOT NULL,
  "details_hash" text NOT NULL,
  "details_created_at" timestamp with time zone,
  "title" text,
  "description" text,
  "category" text,
  "latitude" double precision,
  "longitude" double precision,
  "rating_sum" integer NOT NULL DEFAULT 0,
  "rating_count" integer NOT NULL DEFAULT 0,
  "min_guild_xp" integer,
  "search_vector" tsvector,
  "category_lc" text GENERATED ALWAYS AS (lower("category")) STORED,
  "geo" cube GENERATED ALWAYS AS ("api"."geo_ecef"("latitude", "longitude")) STORED,
  "pub_latitude" double precision GENERATED ALWAYS AS ("api"."cell6_center"("latitude", 90)) STORED,
  "pub_longitude" double precision GENERATED ALWAYS AS ("api"."cell6_center"("longitude", 180)) STORED,
  "pub_geo" cube GENERATED ALWAYS AS ("api"."geo_ecef"("api"."cell6_center"("latitude", 90), "api"."cell6_center"("longitude", 180))) STORED,
  "change_seq" bigint NOT NULL DEFAULT nextval('"api"."discovery_change_seq"')
);
--> statement-breakpoint
-- The map and the location feed: open missions with a point (KNN `<->`, radius `<@ cube_enlarge`).
CREATE INDEX IF NOT EXISTS "discovery_missions_geo_idx" ON "api"."discovery_missions" USING gist ("geo")
  WHERE "state" = 'Open' AND "geo" IS NOT NULL;
--> statement-breakpoint
-- Nearest first as a non-party sees it (distance to the neighbourhood point): the map's and the feed's page order.
CREATE INDEX IF NOT EXISTS "discovery_missions_pub_geo_idx" ON "api"."discovery_missions" USING gist ("pub_geo")
  WHERE "state" = 'Open' AND "pub_geo" IS NOT NULL;
--> statement-breakpoint
-- The feed's column orders over open missions.
CREATE INDEX IF NOT EXISTS "discovery_missions_open_created_idx" ON "api"."discovery_missions" ("created_at" DESC, "id") WHERE "state" = 'Open';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_open_reward_idx" ON "api"."discovery_missions" ("reward" DESC, "id") WHERE "state" = 'Open';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_open_expiry_idx" ON "api"."discovery_missions" ("expires_at", "id") WHERE "state" = 'Open';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_search_idx" ON "api"."discovery_missions" USING gin ("search_vector");
--> statement-breakpoint
-- Reputation changes touch every row of one poster.
CREATE INDEX IF NOT EXISTS "discovery_missions_poster_idx" ON "api"."discovery_missions" ("poster");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_missions_change_seq_idx" ON "api"."discovery_missions" ("change_seq");
