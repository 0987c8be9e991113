// SQL of the discovery area: feed candidates and the user's engagement, full-text search, the
// nearby K-nearest-neighbour query, engagement events and location history. Reads Ponder's views
// (chainSchema) joined with api.mission_details (current details = the hash the chain holds).
//
// Work per request is bounded at any table size (bench B2–B4, 1M missions): every query reads a
// window of at most `limit` rows in index order, and totals are counted up to TOTAL_CAP only
// (`capped` says when there are more): an exact count(*) over a city or a common search term is
// the one cost that grows with the data (see docs/decisions.md "Discovery totals").
import crypto from "node:crypto";
import pg from "pg";
import { AppError } from "../lib/errors.ts";
import { mercatorPoint } from "../services/discovery/geo.ts";

/**
 * chainQuery as a named (prepared) statement: the SQL texts here are few (one per filter
 * combination) and planning them (the haversine, the inlined geo_point) costs as much as running
 * them, so each connection plans each text once.
 */
async function q<R extends pg.QueryResultRow>(pool: pg.Pool | pg.PoolClient, text: string, params: unknown[] = []) {
  const name = `disc_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
  try {
    return await pool.query<R>({ name, text, values: params });
  } catch (err) {
    // As chainQuery: the chain views are missing until the indexer has started once.
    if (MISSING.has((err as { code?: string }).code ?? "")) throw new AppError("INDEXER_UNAVAILABLE", "Indexed chain data is not available yet");
    throw err;
  }
}
const PgPool = pg.Pool;
const MISSING = new Set(["3F000", "42P01"]); // invalid_schema_name, undefined_table

/** Totals (feed total, nearby totalCount, search total) are exact up to this many matches. */
export const TOTAL_CAP = 1000;

/** A candidate of the feed / the map: what scoring, privacy and clustering need. */
export interface CandidateRow {
  id: string;
  poster: string;
  performer: string | null;
  guild_uuid: string | null;
  reward: string;
  expires_at: string;
  details_hash: string | null;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  rating_sum: number;
  rating_count: number;
  min_guild_xp: number | null;
  distance: number | null;
}

/** What a response shows about a candidate besides the window's columns (only for the page). */
export interface DisplayRow {
  id: string;
  title: string | null;
  category: string | null;
  guild_name: string | null;
  poster_id: string | null;
  poster_name: string | null;
  min_guild_xp: number | null;
}

export interface CandidateFilter {
  nowSec: number;
  category?: string;
  guildId?: string;
  searchQuery?: string;
  minReward?: bigint;
  maxReward?: bigint;
  limit: number;
}

export interface NearFilter extends CandidateFilter {
  latitude: number;
  longitude: number;
  /** Exact great-circle radius (meters) and its bounding box. */
  radius: number;
  box: { south: number; north: number; west: number; east: number };
  /** Feed only: the board's min guild XP and the poster's ratings (scoring). */
  scoring?: boolean;
}

const EARTH_RADIUS_M = 6_371_008.8;
const geoPoint = mercatorPoint;

const finite = (x: number) => {
  if (!Number.isFinite(x)) throw new Error("non-finite number in a discovery query");
  return `(${x.toString()})::float8`;
};
const HAVERSINE = (lat: number, lng: number) =>
  `(2 * ${EARTH_RADIUS_M} * asin(least(1, sqrt(power(sin(radians(d.latitude - ${finite(lat)}) / 2), 2) +
     cos(radians(${finite(lat)})) * cos(radians(d.latitude)) * power(sin(radians(d.longitude - ${finite(lng)}) / 2), 2)))))`;

/** Joins a details row to its mission only while the chain still holds that details hash. */
const CURRENT = (s: string) => `${s}.missions m ON m.on_chain_id = d.on_chain_id::numeric AND lower(m.details_hash) = d.details_hash`;

export function discoveryRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;

  /**
   * K-nearest-neighbour queries run on connections with bitmap scans and sorts off: PostgreSQL has
   * no statistics for `point <@ box` (a fixed 0.1% guess), so it expects a handful of rows in any
   * radius and picks "bitmap-scan the whole box, join every row, sort": at 5 km in a city centre
   * that joins ~48k rows (4 s cold at 1M missions, see docs/decisions.md). The ordered GiST scan
   * stops after `limit` matches whatever the density. A connection setting (not SET LOCAL in a
   * transaction) keeps it one round trip with a prepared statement; the pool is small, separate
   * from the main one so no other query plans under these settings, and lets the process exit.
   */
  let knnPool: pg.Pool | undefined;
  async function knn<R extends pg.QueryResultRow>(text: string, params: unknown[]): Promise<R[]> {
    if (!knnPool) {
      const o = pool.options;
      knnPool = new PgPool({
        ...(o.connectionString ? { connectionString: o.connectionString } : { host: o.host, port: o.port, user: o.user, password: o.password, database: o.database }),
        max: Math.max(2, Math.min(10, o.max ?? 10)),
        connectionTimeoutMillis: o.connectionTimeoutMillis ?? 10_000,
        keepAlive: true,
        idleTimeoutMillis: 10_000,
        allowExitOnIdle: true,
        options: "-c enable_bitmapscan=off -c enable_sort=off",
      });
      knnPool.on("error", () => {});
    }
    return (await q<R>(knnPool, text, params)).rows;
  }

  /** WHERE parts shared by every window (Open, unexpired, the filters), with their parameters. */
  function filters(f: CandidateFilter, params: unknown[]) {
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const where = [`m.state = 'Open'`, `m.expires_at > ${p(f.nowSec)}`];
    if (f.category) where.push(`lower(d.category) = lower(${p(f.category)})`);
    if (f.guildId) where.push(`m.guild_uuid = ${p(f.guildId)}`);
    if (f.searchQuery) where.push(`d.search_vector @@ websearch_to_tsquery('english', ${p(f.searchQuery)})`);
    if (f.minReward !== undefined) where.push(`m.reward >= ${p(f.minReward.toString())}`);
    if (f.maxReward !== undefined) where.push(`m.reward <= ${p(f.maxReward.toString())}`);
    return { where, p };
  }

  // Scoring columns of the feed: one primary-key probe per row (the board's gate only for guild missions).
  const SCORING = `coalesce(ps.rating_sum, 0) AS rating_sum, coalesce(ps.rating_count, 0) AS rating_count,
      CASE WHEN c.guild_uuid IS NOT NULL THEN
        (SELECT max(be.min_guild_xp) FROM ${s}.board_entries be WHERE be.mission_id = c.id AND be.active) END AS min_guild_xp`;
  const SCORING_JOIN = `LEFT JOIN ${s}.user_stats ps ON ps.address = lower(c.poster)`;
  const NO_SCORING = `0 AS rating_sum, 0 AS rating_count, NULL::int AS min_guild_xp`;
  const WINDOW_COLS = `m.id, m.poster, m.performer, m.guild_uuid, m.reward::text AS reward, m.expires_at::text AS expires_at,
      m.created_at, d.details_hash, d.category, d.latitude, d.longitude`;

  return {
    /**
     * The open missions nearest to a point within an exact radius, nearest first, at most `limit`:
     * a GiST K-nearest-neighbour scan (api.geo_point, bounded by the box so a sparse area does not
     * walk the whole index) that stops after `limit` matches of the join + filters.
     */
    async nearest(f: NearFilter): Promise<CandidateRow[]> {
      const params: unknown[] = [];
      const { where, p } = filters(f, params);
      const [x1, y1] = geoPoint(f.box.south, f.box.west);
      const [x2, y2] = geoPoint(f.box.north, f.box.east);
      const [qx, qy] = geoPoint(f.latitude, f.longitude);
      const hav = HAVERSINE(f.latitude, f.longitude);
      where.push(
        `d.latitude IS NOT NULL AND d.longitude IS NOT NULL AND d.on_chain_id IS NOT NULL`,
        `api.geo_point(d.latitude, d.longitude) <@ box(point(${p(x1)}, ${p(y1)}), point(${p(x2)}, ${p(y2)}))`,
        `${hav} <= ${p(f.radius)}`,
      );
      return knn<CandidateRow>(
        `WITH c AS MATERIALIZED (
           SELECT ${WINDOW_COLS}, ${hav} AS distance
             FROM api.mission_details d JOIN ${CURRENT(s)}
            WHERE ${where.join(" AND ")}
            ORDER BY api.geo_point(d.latitude, d.longitude) <-> point(${p(qx)}, ${p(qy)}), m.id
            LIMIT ${Math.floor(f.limit)})
         SELECT c.*, ${f.scoring ? SCORING : NO_SCORING} FROM c ${f.scoring ? SCORING_JOIN : ""}`,
        params);
    },

    /**
     * The first `limit` open missions in a column order (newest / reward / expiry), with scoring columns.
     * `outside`: only those `nearest` over the same point and radius would not return (no current
     * location, or farther than the radius), so a feed fills a sparse window in one query without
     * fetching the near rows a second time.
     */
    async ordered(f: CandidateFilter & { order: "created" | "reward" | "urgency"; outside?: { latitude: number; longitude: number; radius: number } }): Promise<CandidateRow[]> {
      const params: unknown[] = [];
      const { where, p } = filters(f, params);
      if (f.outside) {
        where.push(
          `(d.details_hash IS NULL OR d.latitude IS NULL OR d.longitude IS NULL OR d.on_chain_id IS NULL
            OR m.on_chain_id <> d.on_chain_id::numeric OR ${HAVERSINE(f.outside.latitude, f.outside.longitude)} > ${p(f.outside.radius)})`,
        );
      }
      const order = { created: "m.created_at DESC, m.id", reward: "m.reward DESC, m.id", urgency: "m.expires_at ASC, m.id" }[f.order];
      const res = await q<CandidateRow>(pool,
        `WITH c AS MATERIALIZED (
           SELECT ${WINDOW_COLS}, NULL::float8 AS distance
             FROM ${s}.missions m LEFT JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
            WHERE ${where.join(" AND ")}
            ORDER BY ${order} LIMIT ${Math.floor(f.limit)})
         SELECT c.*, ${SCORING} FROM c ${SCORING_JOIN}`,
        params);
      return res.rows;
    },

    /** Title, names and the board's gate of the rows a response shows (a page: at most 100). */
    async display(rows: { id: string; poster: string; guild_uuid: string | null; details_hash: string | null }[]): Promise<Map<string, DisplayRow>> {
      if (rows.length === 0) return new Map();
      const res = await q<DisplayRow>(pool,
        `SELECT r.id, d.title, d.category, g.name AS guild_name, pu.id AS poster_id, pu.display_name AS poster_name,
                CASE WHEN r.guild_uuid IS NOT NULL THEN
                  (SELECT max(be.min_guild_xp) FROM ${s}.board_entries be WHERE be.mission_id = r.id AND be.active) END AS min_guild_xp
           FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(id, poster, guild_uuid, details_hash)
           LEFT JOIN api.mission_details d ON d.details_hash = r.details_hash
           LEFT JOIN ${s}.guilds g ON g.id = r.guild_uuid
           LEFT JOIN api.users pu ON pu.evm_address = lower(r.poster)`,
        [rows.map((r) => r.id), rows.map((r) => r.poster), rows.map((r) => r.guild_uuid), rows.map((r) => r.details_hash)]);
      return new Map(res.rows.map((r) => [r.id, r]));
    },

    /** Active guild memberships of one address (uuid -> guildXP): the map's eligibility. */
    async userGuilds(address: string): Promise<Map<string, number>> {
      const res = await q<{ guild_uuid: string; guild_xp: number }>(pool,
        `SELECT guild_uuid, guild_xp FROM ${s}.guild_members WHERE account = $1 AND active`, [address.toLowerCase()]);
      return new Map(res.rows.map((g) => [g.guild_uuid, g.guild_xp]));
    },

    /**
     * XP, active guild memberships (uuid -> guildXP) and engagement per category of one address: one
     * statement (six index lookups as JSON), one round trip.
     */
    async userContext(address: string, userId: string | null) {
      // Ponder stores hex columns lowercase, so equality on the lowercased address uses the indexes.
      type Counts = Record<string, number>;
      const res = await q<{ total_xp: number | null; guilds: Record<string, number> | null; completed: Counts | null; rated: Counts | null; views: Record<string, { count: number; dwellMs: number }> | null; searches: Counts | null }>(pool,
        `SELECT (SELECT total_xp FROM ${s}.user_stats WHERE address = $1) AS total_xp,
                (SELECT json_object_agg(guild_uuid, guild_xp) FROM ${s}.guild_members WHERE account = $1 AND active) AS guilds,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT d.category, count(*)::int AS n FROM ${s}.missions m JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
                    WHERE m.performer = $1 AND m.state = 'Completed' GROUP BY d.category) x) AS completed,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT d.category, count(*)::int AS n FROM ${s}.ratings r JOIN ${s}.missions m ON m.id = r.mission_id
                     JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
                    WHERE r.rater = $1 AND r.counted AND r.score >= 4 GROUP BY d.category) x) AS rated,
                (SELECT json_object_agg(category, json_build_object('count', n, 'dwellMs', dwell)) FROM (
                   SELECT category, count(*)::int AS n, sum(dwell_ms)::float8 AS dwell FROM api.discovery_events
                    WHERE user_id = $2 AND kind = 'view' AND category IS NOT NULL AND created_at > now() - interval '90 days' GROUP BY category) x) AS views,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT category, count(*)::int AS n FROM api.discovery_events
                    WHERE user_id = $2 AND kind = 'search' AND category IS NOT NULL AND created_at > now() - interval '90 days' GROUP BY category) x) AS searches`,
        [address.toLowerCase(), userId]);
      const r = res.rows[0]!;
      return {
        totalXp: r.total_xp ?? 0,
        guilds: new Map(Object.entries(r.guilds ?? {})),
        engagement: { completed: r.completed ?? {}, ratedWell: r.rated ?? {}, views: r.views ?? {}, searches: r.searches ?? {} },
      };
    },

    /**
     * Full-text search: the best `limit` current details by ts_rank and the number of matches up to
     * TOTAL_CAP. Ties (frequent: one-word queries) go to the newest details row, then the hash: a
     * timestamp compare (casting the text on-chain id per row made the common-term sort 70% slower).
     * Without chain filters (state, guild) the ranking
     * reads the details alone (the GIN index, as raw tsvector SQL does) and only the top rows are
     * joined to the chain to drop superseded versions; with a chain filter every match is joined.
     */
    async search(f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
      type Hit = { id: string; title: string; description: string; category: string; rank: number; headline: string };
      const params: unknown[] = [f.q];
      const p = (v: unknown) => (params.push(v), `$${params.length}`);
      const dWhere = [`d.search_vector @@ tq.q`, `d.on_chain_id IS NOT NULL`];
      if (f.category) dWhere.push(`lower(d.category) = lower(${p(f.category)})`);
      const mWhere: string[] = [];
      if (f.state) mWhere.push(`m.state = ${p(f.state)}`);
      if (f.guildId) mWhere.push(`m.guild_uuid = ${p(f.guildId)}`);
      const limit = Math.floor(f.limit);
      const chainFilter = mWhere.length > 0;
      // One ranking scan gives the page and the total: it keeps the best TOTAL_CAP + 1 rows (a top-N
      // heap of 1,001 costs about what one of 50 does; a second GIN bitmap for a count cost ~15% more
      // on a common term, a window count spilled to disk). Without chain filters those rows are
      // details versions, joined to the chain afterwards; superseded versions (an edited mission's
      // old details) are rare, so the window widens only if they leave the page short.
      for (let window = TOTAL_CAP + 1; ; window *= 4) {
        const ranked = `SELECT d.details_hash, d.on_chain_id, d.created_at, ts_rank(d.search_vector, tq.q) AS rank
             FROM api.mission_details d CROSS JOIN tq ${chainFilter ? `JOIN ${CURRENT(s)}` : ""}
            WHERE ${dWhere.join(" AND ")}${chainFilter ? ` AND ${mWhere.join(" AND ")}` : ""}
            ORDER BY rank DESC, d.created_at DESC, d.details_hash LIMIT ${window}`;
        const rm = `${s}.missions m ON m.on_chain_id = r.on_chain_id::numeric AND lower(m.details_hash) = r.details_hash`;
        // Exact (current missions only) below the cap; past it, "more than TOTAL_CAP".
        const total = chainFilter
          ? `SELECT count(*) AS n FROM r`
          : `SELECT CASE WHEN (SELECT count(*) FROM r) <= ${TOTAL_CAP} THEN (SELECT count(*) FROM r JOIN ${rm}) ELSE (SELECT count(*) FROM r) END AS n`;
        const res = await q<Hit & { total: string; window_rows: number }>(pool,
          `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
           r AS MATERIALIZED (${ranked}),
           hits AS (
             SELECT m.id, d.title, d.description, d.category, r.rank, r.created_at, r.details_hash
               FROM r JOIN ${rm} JOIN api.mission_details d ON d.details_hash = r.details_hash
              ORDER BY r.rank DESC, r.created_at DESC, r.details_hash LIMIT ${limit}),
           total AS MATERIALIZED (${total})
           SELECT h.id, h.title, h.description, h.category, h.rank::float8 AS rank,
                  ts_headline('english', translate(h.title, chr(2) || chr(3), ''), tq.q,
                              'HighlightAll=true, StartSel=' || chr(2) || ', StopSel=' || chr(3)) AS headline,
                  total.n::text AS total, (SELECT count(*)::int FROM r) AS window_rows
             FROM hits h CROSS JOIN tq CROSS JOIN total ORDER BY h.rank DESC, h.created_at DESC, h.details_hash`,
          params);
        const rows = res.rows;
        const windowRows = rows[0]?.window_rows ?? 0;
        if (chainFilter || rows.length >= limit || windowRows < window) {
          const n = Number(rows[0]?.total ?? 0);
          return { rows, total: Math.min(n, TOTAL_CAP), capped: n > TOTAL_CAP };
        }
      }
    },

    async recordEvent(e: { userId: string; kind: "view" | "search"; missionId?: string; category?: string | null; query?: string; dwellMs?: number }) {
      await pool.query(
        `INSERT INTO api.discovery_events (user_id, kind, mission_id, category, query, dwell_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
        [e.userId, e.kind, e.missionId ?? null, e.category ?? null, e.query ?? null, e.dwellMs ?? 0],
      );
    },

    async recordLocation(r: { userId: string; missionId: string; latitude: number; longitude: number; accuracy: number; distance: number; verified: boolean }) {
      await pool.query(
        `INSERT INTO api.location_history (user_id, mission_id, latitude, longitude, accuracy, distance, verified) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.userId, r.missionId, r.latitude, r.longitude, r.accuracy, r.distance, r.verified],
      );
    },

    /** Retention: location history older than `days` (spec: 30). Returns the rows removed. */
    async purgeLocationHistory(days: number): Promise<number> {
      const res = await pool.query(`DELETE FROM api.location_history WHERE created_at < now() - make_interval(days => $1)`, [days]);
      return res.rowCount ?? 0;
    },
  };
}
export type DiscoveryRepository = ReturnType<typeof discoveryRepository>;
