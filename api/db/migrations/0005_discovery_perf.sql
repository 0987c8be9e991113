-- Discovery at 1M missions (issue 8, bench B2-B4). Hand-written; keep statements separated by breakpoints.
-- A planar point for the nearby/feed K-nearest-neighbour search without PostGIS: (radians(lng), Mercator y).
-- Mercator is conformal (locally the same scale in both axes), so ordering by the planar distance is
-- ordering by ground distance up to the scale change across the query's radius (< 1% at 50 km below
-- 60° latitude); the exact haversine filter and the final sort stay in SQL / the service. Latitude is
-- clamped to ±85.0511° (the projection's edge). IMMUTABLE and schema-qualified so the index expression
-- and the queries match and no search_path is involved.
CREATE OR REPLACE FUNCTION "api"."geo_point"(lat double precision, lng double precision) RETURNS point
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN point(radians(lng), ln(tan(pi() / 4 + radians(least(85.0511, greatest(-85.0511, lat))) / 2)));
--> statement-breakpoint
-- GiST over the published details with a location: `<@ box` (bounding box) + `<->` (KNN order). The
-- included columns let the scan feed the join to the chain's missions without visiting the heap.
CREATE INDEX IF NOT EXISTS "mission_details_geo_idx" ON "api"."mission_details"
  USING gist ("api"."geo_point"("latitude", "longitude")) INCLUDE ("on_chain_id", "details_hash", "latitude", "longitude", "category")
  WHERE "latitude" IS NOT NULL AND "longitude" IS NOT NULL AND "on_chain_id" IS NOT NULL;
--> statement-breakpoint
-- Replaced by the GiST index (a (lat, lng) btree only narrows by latitude: a band around the globe).
DROP INDEX IF EXISTS "api"."mission_details_lat_lng_idx";
