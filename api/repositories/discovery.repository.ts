// SQL of the discovery area: feed candidates and the user's engagement, full-text search, the
// nearby bounding-box query, engagement events and location history. Reads Ponder's views
// (chainSchema) joined with api.mission_details (current details = the hash the chain holds).
import type pg from "pg";
import { chainQuery } from "./chain-query.ts";

const q = chainQuery;

export interface CandidateRow {
  id: string;
  poster: string;
  performer: string | null;
  guild_uuid: string | null;
  guild_name: string | null;
  reward: string;
  expires_at: string;
  state: string;
  title: string | null;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  radius: number | null;
  poster_id: string | null;
  poster_name: string | null;
  rating_sum: number;
  rating_count: number;
  min_guild_xp: number | null;
  distance: number | null;
}

export interface CandidateFilter {
  nowSec: number;
  category?: string;
  guildId?: string;
  searchQuery?: string;
  latitude?: number;
  longitude?: number;
  /** Bounding box + exact radius (nearby). */
  within?: { south: number; north: number; west: number; east: number; radius: number };
  minReward?: bigint;
  maxReward?: bigint;
  order: "created" | "reward" | "urgency" | "distance";
  limit: number;
}

const HAVERSINE = (lat: string, lng: string) =>
  `(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(d.latitude - ${lat}) / 2), 2) +
     cos(radians(${lat})) * cos(radians(d.latitude)) * power(sin(radians(d.longitude - ${lng}) / 2), 2)))))`;

export function discoveryRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;
  return {
    /** Open, unexpired missions matching the filter (a window of `limit` rows) and the total count. */
    async candidates(f: CandidateFilter): Promise<{ rows: CandidateRow[]; total: number }> {
      const params: unknown[] = [f.nowSec];
      const p = (v: unknown) => (params.push(v), `$${params.length}`);
      const where = [`m.state = 'Open'`, `m.expires_at > $1`];
      if (f.category) where.push(`lower(d.category) = lower(${p(f.category)})`);
      if (f.guildId) where.push(`m.guild_uuid = ${p(f.guildId)}`);
      if (f.searchQuery) where.push(`d.search_vector @@ websearch_to_tsquery('english', ${p(f.searchQuery)})`);
      if (f.minReward !== undefined) where.push(`m.reward >= ${p(f.minReward.toString())}`);
      if (f.maxReward !== undefined) where.push(`m.reward <= ${p(f.maxReward.toString())}`);
      let distance = "NULL::float8";
      if (f.latitude !== undefined && f.longitude !== undefined) {
        // Inlined (validated finite numbers): the count query does not use the distance, and an
        // unreferenced parameter would have no type.
        const num = (x: number) => {
          if (!Number.isFinite(x)) throw new Error("non-finite coordinate");
          return `(${x.toString()})::float8`;
        };
        distance = HAVERSINE(num(f.latitude), num(f.longitude));
      }
      if (f.within) {
        where.push(`d.latitude BETWEEN ${p(f.within.south)} AND ${p(f.within.north)}`);
        where.push(`d.longitude BETWEEN ${p(f.within.west)} AND ${p(f.within.east)}`);
        where.push(`${distance} <= ${p(f.within.radius)}`);
      }
      // Nearby starts from the details' lat/lng index, then the missions' on_chain_id index.
      const from = f.within
        ? `api.mission_details d JOIN ${s}.missions m ON m.on_chain_id = d.on_chain_id::numeric AND lower(m.details_hash) = d.details_hash`
        : `${s}.missions m LEFT JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)`;
      const order = {
        created: "m.created_at DESC, m.id",
        reward: "m.reward DESC, m.id",
        urgency: "m.expires_at ASC, m.id",
        distance: "distance ASC NULLS LAST, m.id",
      }[f.order];
      const w = where.join(" AND ");
      const [rows, count] = await Promise.all([
        // Pick the window first (only the mission + details), then enrich those rows: the
        // haversine filter's row estimate is poor, and joins planned on it degrade to nested loops.
        q<CandidateRow>(pool,
          `WITH c AS MATERIALIZED (
             SELECT m.id, m.poster, m.performer, m.guild_uuid, m.reward, m.expires_at, m.created_at, m.state,
                    d.title, d.category, d.latitude, d.longitude, d.radius, ${distance} AS distance
               FROM ${from} WHERE ${w} ORDER BY ${order} LIMIT ${f.limit})
           SELECT c.id, c.poster, c.performer, c.guild_uuid, g.name AS guild_name, c.reward::text, c.expires_at::text,
                  c.state, c.title, c.category, c.latitude, c.longitude, c.radius,
                  pu.id AS poster_id, pu.display_name AS poster_name,
                  coalesce(ps.rating_sum, 0) AS rating_sum, coalesce(ps.rating_count, 0) AS rating_count,
                  (SELECT max(be.min_guild_xp) FROM ${s}.board_entries be WHERE be.mission_id = c.id AND be.active) AS min_guild_xp,
                  c.distance
             FROM c
             LEFT JOIN ${s}.guilds g ON g.id = c.guild_uuid
             LEFT JOIN LATERAL (SELECT u.id, u.display_name FROM api.users u WHERE u.evm_address = lower(c.poster) LIMIT 1) pu ON true
             LEFT JOIN LATERAL (SELECT x.rating_sum, x.rating_count FROM ${s}.user_stats x WHERE x.address = lower(c.poster) LIMIT 1) ps ON true
            ORDER BY ${order.replaceAll("m.", "c.")}`, params),
        q<{ n: string }>(pool, `SELECT count(*)::text AS n FROM ${from} WHERE ${w}`, params),
      ]);
      return { rows: rows.rows, total: Number(count.rows[0]!.n) };
    },

    /** XP, active guild memberships (uuid -> guildXP) and engagement per category of one address. */
    async userContext(address: string, userId: string | null) {
      const a = address.toLowerCase();
      const [stats, guilds, completed, rated, views, searches] = await Promise.all([
        q<{ total_xp: number }>(pool, `SELECT total_xp FROM ${s}.user_stats WHERE address = $1`, [a]),
        q<{ guild_uuid: string; guild_xp: number }>(pool,
          `SELECT guild_uuid, guild_xp FROM ${s}.guild_members WHERE lower(account) = $1 AND active`, [a]),
        q<{ category: string; n: number }>(pool,
          `SELECT d.category, count(*)::int AS n FROM ${s}.missions m JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
            WHERE lower(m.performer) = $1 AND m.state = 'Completed' GROUP BY d.category`, [a]),
        q<{ category: string; n: number }>(pool,
          `SELECT d.category, count(*)::int AS n FROM ${s}.ratings r JOIN ${s}.missions m ON m.id = r.mission_id
             JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
            WHERE lower(r.rater) = $1 AND r.counted AND r.score >= 4 GROUP BY d.category`, [a]),
        userId
          ? q<{ category: string; n: number; dwell: string }>(pool,
              `SELECT category, count(*)::int AS n, sum(dwell_ms)::text AS dwell FROM api.discovery_events
                WHERE user_id = $1 AND kind = 'view' AND category IS NOT NULL AND created_at > now() - interval '90 days' GROUP BY category`, [userId])
          : Promise.resolve({ rows: [] as { category: string; n: number; dwell: string }[] }),
        userId
          ? q<{ category: string; n: number }>(pool,
              `SELECT category, count(*)::int AS n FROM api.discovery_events
                WHERE user_id = $1 AND kind = 'search' AND category IS NOT NULL AND created_at > now() - interval '90 days' GROUP BY category`, [userId])
          : Promise.resolve({ rows: [] as { category: string; n: number }[] }),
      ]);
      const rec = (rows: { category: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.category, r.n]));
      return {
        totalXp: stats.rows[0]?.total_xp ?? 0,
        guilds: new Map(guilds.rows.map((g) => [g.guild_uuid, g.guild_xp])),
        engagement: {
          completed: rec(completed.rows),
          ratedWell: rec(rated.rows),
          views: Object.fromEntries(views.rows.map((v) => [v.category, { count: v.n, dwellMs: Number(v.dwell) }])),
          searches: rec(searches.rows),
        },
      };
    },

    async search(f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
      const params: unknown[] = [f.q];
      const p = (v: unknown) => (params.push(v), `$${params.length}`);
      const where = [`d.search_vector @@ tq.q`];
      if (f.state) where.push(`m.state = ${p(f.state)}`);
      if (f.category) where.push(`lower(d.category) = lower(${p(f.category)})`);
      if (f.guildId) where.push(`m.guild_uuid = ${p(f.guildId)}`);
      const res = await q<{ id: string; title: string; description: string; category: string; rank: number; headline: string; total: string }>(pool,
        `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
         hits AS (
           SELECT m.id, d.title, d.description, d.category, ts_rank(d.search_vector, tq.q) AS rank, m.created_at,
                  count(*) OVER () AS total
             FROM api.mission_details d CROSS JOIN tq
             JOIN ${s}.missions m ON m.on_chain_id = d.on_chain_id::numeric AND lower(m.details_hash) = d.details_hash
            WHERE ${where.join(" AND ")}
            ORDER BY rank DESC, m.created_at DESC, m.id LIMIT ${f.limit})
         SELECT h.id, h.title, h.description, h.category, h.rank::float8 AS rank, h.total::text,
                ts_headline('english', translate(h.title, chr(2) || chr(3), ''), tq.q,
                            'HighlightAll=true, StartSel=' || chr(2) || ', StopSel=' || chr(3)) AS headline
           FROM hits h CROSS JOIN tq ORDER BY h.rank DESC, h.created_at DESC, h.id`,
        params);
      return { rows: res.rows, total: Number(res.rows[0]?.total ?? 0) };
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
