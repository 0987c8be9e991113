// SQL of the discovery area: the map, the feed's candidates and full-text search over the read model
// api.discovery_missions (one row per mission, see discovery-read-model.repository.ts), the user's
// engagement, engagement events and location history. No discovery read joins the details to the
// chain: totals and clusters are exact counts over the read model's indexes.
import crypto from "node:crypto";
import type pg from "pg";
import { AppError } from "../lib/errors.ts";
import { chord } from "../services/discovery/geo.ts";
import { CELL_SLACK_M, cellPositionsSql } from "./discovery-cells.sql.ts";

/** Statement name per SQL text (the texts are few and fixed; hashing one per request cost ~10 µs). */
const statementNames = new Map<string, string>();

/**
 * A named (prepared) statement: the SQL texts here are few (one per filter combination), so each
 * connection plans each text once.
 */
async function q<R extends pg.QueryResultRow>(pool: pg.Pool | pg.PoolClient, text: string, params: unknown[] = []) {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= 1000) statementNames.clear(); // a bound, should a text ever carry a value
    statementNames.set(text, (name = `disc_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`));
  }
  try {
    return await pool.query<R>({ name, text, values: params });
  } catch (err) {
    // As chainQuery: the chain views are missing until the indexer has started once.
    if (MISSING.has((err as { code?: string }).code ?? "")) throw new AppError("INDEXER_UNAVAILABLE", "Indexed chain data is not available yet");
    throw err;
  }
}
const MISSING = new Set(["3F000", "42P01"]); // invalid_schema_name, undefined_table

/** A candidate of the feed / the map: what scoring, privacy and clustering need. */
export interface CandidateRow {
  id: string;
  poster: string;
  performer: string | null;
  guild_uuid: string | null;
  reward: string;
  expires_at: string;
  details_hash: string | null;
  title: string | null;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  rating_sum: number;
  rating_count: number;
  min_guild_xp: number | null;
  min_reputation: number | null;
  premium: boolean;
}

/** What a response shows about a candidate besides its read-model row (only for the page). */
export interface DisplayRow {
  id: string;
  guild_name: string | null;
  poster_id: string | null;
  poster_name: string | null;
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

export interface Circle {
  latitude: number;
  longitude: number;
  /** Exact great-circle radius (meters). */
  radius: number;
}

const COLS = `dm.id, dm.poster, dm.performer, dm.guild_uuid, dm.reward::text AS reward, dm.expires_at::text AS expires_at,
  dm.details_hash, dm.title, dm.category, dm.latitude, dm.longitude, dm.rating_sum, dm.rating_count, dm.min_guild_xp,
  dm.min_reputation, dm.premium`;

/**
 * What a new connection plans before its first discovery request (db/client.ts prefill()): each
 * relation the map, the feed and search read, with all its indexes (planning loads them), and the
 * English text-search dictionary.
 */
export function discoveryWarmStatements(chainSchema: string): string[] {
  const s = `"${chainSchema}"`;
  return [
    `EXPLAIN SELECT * FROM api.discovery_missions dm WHERE dm.id = '' AND dm.search_vector @@ websearch_to_tsquery('english', 'warm')`,
    `EXPLAIN SELECT * FROM api.discovery_search ds WHERE ds.id = '' AND ds.search_vector @@ websearch_to_tsquery('english', 'warm')`,
    `EXPLAIN SELECT * FROM api.discovery_totals WHERE category_key = ''`,
    `EXPLAIN SELECT * FROM api.discovery_removed WHERE seq > 0`,
    `EXPLAIN SELECT * FROM api.discovery_events WHERE user_id = ''`,
    `EXPLAIN SELECT * FROM api.users WHERE evm_address = ''`,
    `EXPLAIN SELECT * FROM ${s}.user_stats WHERE address = ''`,
    `EXPLAIN SELECT * FROM ${s}.guild_members WHERE account = ''`,
    `EXPLAIN SELECT * FROM ${s}.guilds WHERE id = ''`,
    `EXPLAIN SELECT * FROM ${s}.ratings WHERE rater = ''`,
  ];
}

/**
 * A query that PostgreSQL's parser makes one token: letters and digits only (searchOneTerm checks
 * that it became one plain lexeme, else the GIN path answers).
 */
const ONE_WORD = /^\s*[\p{L}\p{N}]+\s*$/u;

export function discoveryRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;

  /** WHERE parts of every open-mission read (Open, unexpired, the filters), with their parameters. */
  function filters(f: CandidateFilter, params: unknown[]) {
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const where = [`dm.state = 'Open'`, `dm.expires_at > ${p(f.nowSec)}`];
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

  type Hit = { id: string; title: string; description: string; category: string; rank: number; headline: string };
  // The best rows' display columns and highlighted titles (ts_headline over the title with STX/ETX
  // marks, escaped and turned into <em> by the service), in the order of `best`: `rows` names the
  // best rows as h and their read-model row as dm.
  const display = (rows: string) =>
    `SELECT h.id, dm.title, dm.description, dm.category, h.rank::float8 AS rank,
            ts_headline('english', translate(dm.title, chr(2) || chr(3), ''), tq.q,
                        'HighlightAll=true, StartSel=' || chr(2) || ', StopSel=' || chr(3)) AS headline,
            total.n::text AS total
       FROM total CROSS JOIN tq LEFT JOIN ${rows} ON true
      ORDER BY h.rank DESC, h.details_created_at DESC, h.details_hash`;

  /**
   * One word: its postings give the best `limit` (with the rows tied with the last on (rank, time),
   * then ordered by the hash, read with the display columns from the read model's row, as the GIN
   * path orders them) and the exact count, both from the key index alone. null when PostgreSQL's parser does not make the word one plain lexeme (the caller
   * takes the GIN path); a stop word is no lexeme and matches nothing on either path.
   */
  async function searchOneTerm(words: string, limit: number) {
    const n = Math.floor(limit);
    const res = await q<Hit & { total: string; one: boolean }>(pool,
      `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
       term AS MATERIALIZED (SELECT l AS lexeme, numnode(q) = 0 OR l IS NOT NULL AS one FROM tq, api.search_term_of(q) l),
       top AS (SELECT t.id::text AS id, t.rank FROM api.discovery_search_terms t
                WHERE t.lexeme = (SELECT lexeme FROM term)
                ORDER BY t.rank DESC NULLS LAST, t.details_created_at DESC NULLS LAST FETCH FIRST ${n} ROWS WITH TIES),
       best AS (SELECT top.id, top.rank, dm.details_created_at, dm.details_hash, dm.title, dm.description, dm.category
                  FROM top JOIN api.discovery_missions dm ON dm.id = top.id
                 ORDER BY top.rank DESC, dm.details_created_at DESC, dm.details_hash LIMIT ${n}),
       total AS (SELECT count(*) AS n FROM api.discovery_search_terms t WHERE t.lexeme = (SELECT lexeme FROM term))
       SELECT x.*, (SELECT one FROM term) AS one FROM (${display("(best h CROSS JOIN LATERAL (SELECT h.title, h.description, h.category) dm)")}) x`,
      [words],
    );
    if (res.rows[0] && !res.rows[0].one) return null;
    return { rows: res.rows.filter((r) => r.id !== null).map(({ one: _, ...r }) => r), total: Number(res.rows[0]?.total ?? 0) };
  }

  /** Any query: the GIN match, every match ranked (see the comment inside). */
  async function searchVector(f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
    const params: unknown[] = [f.q];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const where = [`ds.search_vector @@ tq.q`];
    if (f.category) where.push(`ds.category_lc = lower(${p(f.category)})`);
    if (f.state) where.push(`ds.state = ${p(f.state)}`);
    if (f.guildId) where.push(`ds.guild_uuid = ${p(f.guildId)}`);
    // One pass over the matches (the GIN bitmap, then one heap visit per match) in the narrow search
    // table (api.discovery_search: a third of the read model's row width, so a common term reads a
    // third of the pages): their ranks are kept (materialized), and both the best `limit` and the exact
    // count read that list. Two scans (one for the page, one for the count) cost 27 ms for 10,054
    // matches at 1M missions; this one 17 ms. Only the best `limit` read the read model's rows.
    const res = await q<Hit & { total: string }>(pool,
      `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
       matches AS MATERIALIZED (
         SELECT ds.id, ts_rank(ds.search_vector, tq.q) AS rank, ds.details_created_at, ds.details_hash
           FROM api.discovery_search ds CROSS JOIN tq WHERE ${where.join(" AND ")}),
       best AS (SELECT * FROM matches ORDER BY rank DESC, details_created_at DESC, details_hash LIMIT ${Math.floor(f.limit)}),
       total AS (SELECT count(*) AS n FROM matches)
       ${display("(best h JOIN api.discovery_missions dm ON dm.id = h.id)")}`,
      params,
    );
    return { rows: res.rows.filter((r) => r.id !== null), total: Number(res.rows[0]?.total ?? 0) };
  }

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

    /**
     * The first `limit` open missions in a column order (newest / reward / expiry).
     * `outside`: only those `nearest` over the same circle would not return (no location, or outside
     * it), so a feed fills a sparse window in one query without fetching the near rows a second time.
     */
    async ordered(f: CandidateFilter & { order: "created" | "reward" | "urgency"; outside?: Circle }): Promise<CandidateRow[]> {
      const params: unknown[] = [];
      const { where, p } = filters(f, params);
      if (f.outside) where.push(`(dm.geo IS NULL OR NOT (${inCircle(f.outside, p).cond}))`);
      const order = { created: "dm.created_at DESC, dm.id", reward: "dm.reward DESC, dm.id", urgency: "dm.expires_at ASC, dm.id" }[f.order];
      return (await q<CandidateRow>(pool,
        `SELECT ${COLS} FROM api.discovery_missions dm WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${Math.floor(f.limit)}`,
        params)).rows;
    },

    /** Exact number of open missions matching the filters (and the circle, if any). */
    async count(f: Omit<CandidateFilter, "limit"> & { within?: Circle }): Promise<number> {
      const params: unknown[] = [];
      const { where, p } = filters({ ...f, limit: 0 }, params);
      if (f.within) where.push(inCircle(f.within, p).cond);
      const res = await q<{ n: string }>(pool, `SELECT count(*)::text AS n FROM api.discovery_missions dm WHERE ${where.join(" AND ")}`, params);
      return Number(res.rows[0]?.n ?? 0);
    },

    /** Guild and poster names of the rows a response shows (a page: at most 100). */
    async display(rows: { id: string; poster: string; guild_uuid: string | null }[]): Promise<Map<string, DisplayRow>> {
      if (rows.length === 0) return new Map();
      const res = await q<DisplayRow>(pool,
        `SELECT r.id, g.name AS guild_name, pu.id AS poster_id, pu.display_name AS poster_name
           FROM unnest($1::text[], $2::text[], $3::text[]) AS r(id, poster, guild_uuid)
           LEFT JOIN ${s}.guilds g ON g.id = r.guild_uuid
           LEFT JOIN api.users pu ON pu.evm_address = lower(r.poster)`,
        [rows.map((r) => r.id), rows.map((r) => r.poster), rows.map((r) => r.guild_uuid)]);
      return new Map(res.rows.map((r) => [r.id, r]));
    },

    /** Active guild memberships of one address (uuid -> guildXP): the map's eligibility. */
    /**
     * XP, active guild memberships (uuid -> guildXP) and engagement per category of one address: one
     * statement (six index lookups as JSON), one round trip.
     */
    async userContext(address: string, userId: string | null) {
      // Ponder stores hex columns lowercase, so equality on the lowercased address uses the indexes.
      type Counts = Record<string, number>;
      const res = await q<{ total_xp: number | null; reputation: number | null; level: number | null; guilds: Record<string, number> | null; completed: Counts | null; rated: Counts | null; views: Record<string, { count: number; dwellMs: number }> | null; searches: Counts | null }>(pool,
        `SELECT (SELECT total_xp FROM ${s}.user_stats WHERE address = $1) AS total_xp,
                (SELECT reputation FROM ${s}.user_stats WHERE address = $1) AS reputation,
                (SELECT level FROM ${s}.user_stats WHERE address = $1) AS level,
                (SELECT json_object_agg(guild_uuid, guild_xp) FROM ${s}.guild_members WHERE account = $1 AND active) AS guilds,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT dm.category, count(*)::int AS n FROM api.discovery_missions dm
                    WHERE dm.performer = $1 AND dm.state = 'Completed' AND dm.category IS NOT NULL GROUP BY dm.category) x) AS completed,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT dm.category, count(*)::int AS n FROM ${s}.ratings r JOIN api.discovery_missions dm ON dm.id = r.mission_id
                    WHERE r.rater = $1 AND r.counted AND r.score >= 4 AND dm.category IS NOT NULL GROUP BY dm.category) x) AS rated,
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
        // Eligibility's side (as missions.repository eligibilityFacts: 0 and 1 without a row).
        reputation: r.reputation ?? 0,
        level: r.level ?? 1,
        guilds: new Map(Object.entries(r.guilds ?? {})),
        engagement: { completed: r.completed ?? {}, ratedWell: r.rated ?? {}, views: r.views ?? {}, searches: r.searches ?? {} },
      };
    },

    /**
     * Full-text search over every mission with details: the best `limit` by ts_rank (ties: the newest
     * details, then the hash) and the exact number of matches, one statement. A query of one word and
     * no filter reads the postings (api.discovery_search_terms); any other query the GIN index.
     */
    async search(f: { q: string; state?: string; category?: string; guildId?: string; limit: number; via?: "vector" }) {
      if (f.via !== "vector" && !f.state && !f.category && !f.guildId && ONE_WORD.test(f.q)) {
        const hit = await searchOneTerm(f.q, f.limit);
        if (hit) return hit;
      }
      return searchVector(f);
    },

    async recordEvent(e: { userId: string; kind: "view" | "search"; missionId?: string; category?: string | null; query?: string; dwellMs?: number }) {
      await pool.query(
        `INSERT INTO api.discovery_events (user_id, kind, mission_id, category, query, dwell_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
        [e.userId, e.kind, e.missionId ?? null, e.category ?? null, e.query ?? null, e.dwellMs ?? 0],
      );
    },

    /** `latestOnly`: the user's earlier checks of this mission go, in the same statement. */
    async recordLocation(r: {
      userId: string; missionId: string; latitude: number; longitude: number; accuracy: number; distance: number; verified: boolean; latestOnly: boolean;
    }) {
      await pool.query(
        `WITH earlier AS (DELETE FROM api.location_history WHERE $8::boolean AND user_id = $1 AND mission_id = $2)
         INSERT INTO api.location_history (user_id, mission_id, latitude, longitude, accuracy, distance, verified) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.userId, r.missionId, r.latitude, r.longitude, r.accuracy, r.distance, r.verified, r.latestOnly],
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
