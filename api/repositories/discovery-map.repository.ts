// The map over the read model api.discovery_missions (one row per mission, see
// discovery-read-model.repository.ts) when the feed index does not answer it: the nearest missions to
// a point and the positions within a circle with their exact counts. No read joins the details to the
// chain: totals and clusters are exact counts over the read model's indexes.
import type pg from "pg";
import { missionStateSql } from "../db/checks.ts";
import { chord } from "../services/discovery/geo.ts";
import { CELL_SLACK_M, cellPositionsSql } from "./discovery-cells.sql.ts";
import { CANDIDATE_COLUMNS as COLS, type CandidateRow } from "./discovery-rows.ts";
import { namedQuery as q } from "./discovery-statement.ts";

export interface CandidateFilter {
  nowSec: number;
  category?: string;
  guildId?: string;
  searchQuery?: string;
  minReward?: bigint;
  maxReward?: bigint;
  limit: number;
}

export interface Circle {
  latitude: number;
  longitude: number;
  /** Exact great-circle radius (meters). */
  radius: number;
}

/** WHERE parts of every open-mission read (Open, unexpired, the filters), with their parameters. */
function filters(f: CandidateFilter, params: unknown[]) {
  const p = (v: unknown) => (params.push(v), `$${params.length}`);
  const where = [`dm.state = ${missionStateSql("Open")}`, `dm.expires_at > ${p(f.nowSec)}`];
  if (f.category) where.push(`dm.category_lc = lower(${p(f.category)})`);
  if (f.guildId) where.push(`dm.guild_uuid = ${p(f.guildId)}`);
  if (f.searchQuery) where.push(`dm.search_vector @@ websearch_to_tsquery('english', ${p(f.searchQuery)})`);
  if (f.minReward !== undefined) where.push(`dm.reward >= ${p(f.minReward.toString())}`);
  if (f.maxReward !== undefined) where.push(`dm.reward <= ${p(f.maxReward.toString())}`);
  return { where, p };
}

/** Within the exact radius: a box the GiST index serves, then the exact chord. */
function inCircle(c: Circle, p: (v: unknown) => string) {
  const center = `api.geo_ecef(${p(c.latitude)}::float8, ${p(c.longitude)}::float8)`;
  const r = p(chord(c.radius));
  return { center, cond: `dm.geo <@ cube_enlarge(${center}, ${r}::float8, 3) AND cube_distance(dm.geo, ${center}) <= ${r}::float8` };
}

const PARTY = (v: string) => `(dm.poster = ${v} OR dm.performer = ${v})`;

export function discoveryMapRepository(pool: pg.Pool) {
  return {
    /**
     * The `limit` open missions within the circle nearest to its centre as `viewer` sees them: the
     * viewer's own missions (poster or performer) by their exact point, every other by its
     * neighbourhood point. Non-party missions share their cell's point, so they come cell by cell:
     * the cells (api.discovery_cells) nearest first, each cell's missions by id from the index on
     * (cell, id), stopping once `limit` are found (incremental sort under the LIMIT), however many
     * missions the radius holds. Two lists of at most `limit` each, the caller merges them by shown
     * distance.
     */
    async nearest(f: CandidateFilter & Circle & { viewer?: string }): Promise<CandidateRow[]> {
      const params: unknown[] = [];
      const { where, p } = filters(f, params);
      const { center, cond } = inCircle(f, p);
      where.push(cond);
      const limit = Math.floor(f.limit);
      const slack = `${p(chord(f.radius + CELL_SLACK_M))}::float8`;
      const v = f.viewer ? p(f.viewer.toLowerCase()) : null;
      const others = `SELECT m.* FROM (
          SELECT cl.pub_latitude, cl.pub_longitude, cube_distance(cl.geo, ${center}) AS d FROM api.discovery_cells cl
           WHERE cl.open_count > 0 AND cl.geo <@ cube_enlarge(${center}, ${slack}, 3) AND cube_distance(cl.geo, ${center}) <= ${slack}
           ORDER BY d) c
        CROSS JOIN LATERAL (
          SELECT ${COLS} FROM api.discovery_missions dm
           WHERE dm.pub_latitude = c.pub_latitude AND dm.pub_longitude = c.pub_longitude AND dm.geo IS NOT NULL
             AND ${where.join(" AND ")}${v ? ` AND NOT coalesce(${PARTY(v)}, false)` : ""}
           ORDER BY dm.id LIMIT ${limit}) m
        ORDER BY c.d, m.id LIMIT ${limit}`;
      if (!v) return (await q<CandidateRow>(pool, others, params)).rows;
      return (await q<CandidateRow>(pool,
        `(${others})
         UNION ALL
         (SELECT ${COLS} FROM api.discovery_missions dm
           WHERE ${where.join(" AND ")} AND ${PARTY(v)}
           ORDER BY dm.geo <-> ${center}, dm.id LIMIT ${limit})`, params)).rows;
    },

    /**
     * Every open mission within the circle, counted per position `viewer` is shown (the exact point
     * for their own missions, the neighbourhood point for the rest): the map's exact total and the
     * input of its clusters, a few hundred rows for a city however many missions it holds.
     */
    async positions(f: Omit<CandidateFilter, "limit" | "searchQuery"> & Circle & { viewer?: string }) {
      type Position = { latitude: number; longitude: number; count: number };
      if (!f.category && !f.guildId && f.minReward === undefined && f.maxReward === undefined) {
        // No filter: the cell aggregate answers (the same rows, without visiting every mission).
        const { text, values } = cellPositionsSql({ ...f, viewer: f.viewer?.toLowerCase() });
        return (await q<Position>(pool, text, values)).rows;
      }
      const params: unknown[] = [];
      const { where, p } = filters({ ...f, limit: 0 }, params);
      where.push(inCircle(f, p).cond);
      const party = f.viewer ? `coalesce(${PARTY(p(f.viewer.toLowerCase()))}, false)` : "false";
      return (await q<Position>(pool,
        `SELECT CASE WHEN ${party} THEN dm.latitude ELSE dm.pub_latitude END AS latitude,
                CASE WHEN ${party} THEN dm.longitude ELSE dm.pub_longitude END AS longitude, count(*)::int AS count
           FROM api.discovery_missions dm WHERE ${where.join(" AND ")} GROUP BY 1, 2`, params)).rows;
    },
  };
}
