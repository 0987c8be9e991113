-- Open missions per neighbourhood cell: the geohash-6 cell centre (pub_latitude, pub_longitude) a
-- non-party is shown. The map's exact total and clusters read the cells inside a radius (a few hundred
-- rows for a city) and scan missions only in the cells the circle's edge cuts, instead of every open
-- mission in the radius (api/repositories/discovery.repository.ts positions()). Counts every Open
-- mission with a point, expired or not: expiry and the viewer's own missions are corrected at read time.
-- Hand-written after drizzle-kit's CREATE TABLE (triggers, GiST, partial indexes); the snapshot is 0018.
-- The largest straight-line distance from a geohash-6 cell's centre to its corners (the cell widened by
-- 1e-6 degrees, the rounding of the shown centre): every point of the cell lies within it (on a lat/lng
-- rectangle the farthest point from any point is a corner), so a cell with centre distance + reach <=
-- the radius's chord lies wholly inside the circle (triangle inequality). One distance per cell at read time.
CREATE OR REPLACE FUNCTION "api"."cell6_reach"(lat double precision, lng double precision) RETURNS double precision
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN greatest(
    cube_distance("api"."geo_ecef"(lat + 0.00274758203125, lng + 0.0054941640625), "api"."geo_ecef"(lat, lng)),
    cube_distance("api"."geo_ecef"(lat + 0.00274758203125, lng - 0.0054941640625), "api"."geo_ecef"(lat, lng)),
    cube_distance("api"."geo_ecef"(lat - 0.00274758203125, lng + 0.0054941640625), "api"."geo_ecef"(lat, lng)),
    cube_distance("api"."geo_ecef"(lat - 0.00274758203125, lng - 0.0054941640625), "api"."geo_ecef"(lat, lng)));
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "api"."discovery_cells" (
	"pub_latitude" double precision NOT NULL,
	"pub_longitude" double precision NOT NULL,
	"open_count" integer NOT NULL,
	"geo" "cube" GENERATED ALWAYS AS ("api"."geo_ecef"("pub_latitude", "pub_longitude")) STORED,
	"reach" double precision GENERATED ALWAYS AS ("api"."cell6_reach"("pub_latitude", "pub_longitude")) STORED,
	CONSTRAINT "discovery_cells_pub_latitude_pub_longitude_pk" PRIMARY KEY("pub_latitude","pub_longitude")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "discovery_cells_geo_idx" ON "api"."discovery_cells" USING gist ("geo") WHERE "open_count" > 0;
--> statement-breakpoint
-- By cell: the edge cells' missions for the counts (read from the index alone), and the map's page,
-- cell by cell nearest first, each cell's missions in id order (the page's tie order).
CREATE INDEX IF NOT EXISTS "discovery_missions_open_cell_idx" ON "api"."discovery_missions" ("pub_latitude", "pub_longitude", "id")
  INCLUDE ("expires_at", "geo", "poster", "performer") WHERE "state" = 'Open' AND "geo" IS NOT NULL;
--> statement-breakpoint
-- A viewer's own missions (as performer; poster has its index).
CREATE INDEX IF NOT EXISTS "discovery_missions_performer_idx" ON "api"."discovery_missions" ("performer") WHERE "performer" IS NOT NULL;
--> statement-breakpoint
-- Statement triggers with transition tables: one aggregate upsert per statement (a rebuild's million
-- rows are one GROUP BY, not a million row triggers). Writers of the read model already hold
-- pg_advisory_xact_lock(7301013), so the upserts never race.
CREATE OR REPLACE FUNCTION "api"."discovery_cells_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO api.discovery_cells AS c (pub_latitude, pub_longitude, open_count)
      SELECT pub_latitude, pub_longitude, count(*) FROM new_rows WHERE state = 'Open' AND geo IS NOT NULL GROUP BY 1, 2
      ON CONFLICT (pub_latitude, pub_longitude) DO UPDATE SET open_count = c.open_count + excluded.open_count;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO api.discovery_cells AS c (pub_latitude, pub_longitude, open_count)
      SELECT pub_latitude, pub_longitude, -count(*) FROM old_rows WHERE state = 'Open' AND geo IS NOT NULL GROUP BY 1, 2
      ON CONFLICT (pub_latitude, pub_longitude) DO UPDATE SET open_count = c.open_count + excluded.open_count;
  ELSE
    INSERT INTO api.discovery_cells AS c (pub_latitude, pub_longitude, open_count)
      SELECT lat, lng, sum(d) FROM (
        SELECT pub_latitude AS lat, pub_longitude AS lng, -1 AS d FROM old_rows WHERE state = 'Open' AND geo IS NOT NULL
        UNION ALL
        SELECT pub_latitude, pub_longitude, 1 FROM new_rows WHERE state = 'Open' AND geo IS NOT NULL) x
       GROUP BY 1, 2 HAVING sum(d) <> 0
      ON CONFLICT (pub_latitude, pub_longitude) DO UPDATE SET open_count = c.open_count + excluded.open_count;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_cells_insert" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_cells_insert" AFTER INSERT ON "api"."discovery_missions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_cells_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_cells_update" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_cells_update" AFTER UPDATE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_cells_apply"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "discovery_cells_delete" ON "api"."discovery_missions";
--> statement-breakpoint
CREATE TRIGGER "discovery_cells_delete" AFTER DELETE ON "api"."discovery_missions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "api"."discovery_cells_apply"();
--> statement-breakpoint
-- Existing rows.
INSERT INTO "api"."discovery_cells" (pub_latitude, pub_longitude, open_count)
  SELECT pub_latitude, pub_longitude, count(*) FROM "api"."discovery_missions" WHERE state = 'Open' AND geo IS NOT NULL GROUP BY 1, 2
  ON CONFLICT (pub_latitude, pub_longitude) DO NOTHING;
