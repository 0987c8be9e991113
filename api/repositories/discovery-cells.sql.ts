// The map's exact counts from the cell aggregate (api.discovery_cells, migration 0018): every open,
// unexpired mission within a radius, counted per position the viewer is shown (the exact point for
// their own missions, the neighbourhood cell centre for the rest), without visiting each mission.
//
// A cell whose centre distance plus its reach (the farthest corner, stored per cell: migration 0018)
// is within the radius holds only missions within it, so its kept count is used as is, less its
// expired and the viewer's own missions (few; each has an index). Only the cells the circle's edge may
// cut are scanned mission by mission (an index-only scan by cell).
// Pure SQL text; discovery.repository.ts runs it.
import { chord } from "../services/discovery/geo.ts";
import { missionStateSql } from "../db/checks.ts";

/** The largest distance between a point and the centre of its geohash-6 cell (half the cell's diagonal, at the equator). */
export const CELL_SLACK_M = 700;

export interface CellQuery {
  latitude: number;
  longitude: number;
  radius: number;
  nowSec: number;
  /** Lowercased address of the viewer, if signed in. */
  viewer?: string;
}

/** `{ text, values }` of the positions query: rows (latitude, longitude, count). */
export function cellPositionsSql(f: CellQuery): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const p = (v: unknown) => (values.push(v), `$${values.length}`);
  const lat = p(f.latitude), lng = p(f.longitude), now = p(f.nowSec);
  const r = `${p(chord(f.radius))}::float8`;
  const outer = `${p(chord(f.radius + CELL_SLACK_M))}::float8`;
  const v = f.viewer ? `${p(f.viewer)}::text` : null;
  const party = v ? `(dm.poster = ${v} OR coalesce(dm.performer = ${v}, false))` : "false";
  const own = v
    ? `SELECT dm.latitude, dm.longitude, dm.pub_latitude, dm.pub_longitude FROM api.discovery_missions dm, q
        WHERE (dm.poster = ${v} OR dm.performer = ${v}) AND dm.state = ${missionStateSql("Open")} AND dm.expires_at > ${now}
          AND dm.geo IS NOT NULL AND cube_distance(dm.geo, q.c) <= ${r}`
    : `SELECT 0::float8 AS latitude, 0::float8 AS longitude, 0::float8 AS pub_latitude, 0::float8 AS pub_longitude WHERE false`;
  const text = `
    WITH q AS (SELECT api.geo_ecef(${lat}::float8, ${lng}::float8) AS c),
    cells AS MATERIALIZED (
      SELECT cl.pub_latitude, cl.pub_longitude, cl.open_count,
             cube_distance(cl.geo, q.c) + cl.reach <= ${r} AS inside
        FROM api.discovery_cells cl, q
       WHERE cl.open_count > 0 AND cl.geo <@ cube_enlarge(q.c, ${outer}, 3) AND cube_distance(cl.geo, q.c) <= ${outer}),
    own AS MATERIALIZED (${own}),
    expired AS MATERIALIZED (
      SELECT dm.pub_latitude, dm.pub_longitude FROM api.discovery_missions dm, q
       WHERE dm.state = ${missionStateSql("Open")} AND dm.expires_at <= ${now} AND dm.geo IS NOT NULL
         AND dm.geo <@ cube_enlarge(q.c, ${outer}, 3)),
    edge AS (
      SELECT dm.pub_latitude, dm.pub_longitude, count(*)::int AS n
        FROM cells c
        JOIN api.discovery_missions dm ON dm.pub_latitude = c.pub_latitude AND dm.pub_longitude = c.pub_longitude
                                      AND dm.state = ${missionStateSql("Open")} AND dm.geo IS NOT NULL, q
       WHERE NOT c.inside AND dm.expires_at > ${now} AND cube_distance(dm.geo, q.c) <= ${r} AND NOT ${party}
       GROUP BY 1, 2),
    inner_fix AS (
      SELECT pub_latitude, pub_longitude, count(*)::int AS n FROM (
        SELECT pub_latitude, pub_longitude FROM expired UNION ALL SELECT pub_latitude, pub_longitude FROM own) x
       GROUP BY 1, 2)
    SELECT latitude, longitude, sum(n)::int AS count FROM (
      SELECT c.pub_latitude AS latitude, c.pub_longitude AS longitude, c.open_count - coalesce(f.n, 0) AS n
        FROM cells c LEFT JOIN inner_fix f ON f.pub_latitude = c.pub_latitude AND f.pub_longitude = c.pub_longitude
       WHERE c.inside
      UNION ALL SELECT pub_latitude, pub_longitude, n FROM edge
      UNION ALL SELECT latitude, longitude, 1 FROM own) x
     GROUP BY 1, 2 HAVING sum(n) > 0`;
  return { text, values };
}
