// The reader's side of discovery: their context (XP, reputation, level, guild memberships and
// engagement per category: the feed's and the map's inputs), the names a response shows (guild, poster),
// and what reading leaves behind (engagement events, location checks and their retention).
import type pg from "pg";
import type { ChainRow, DisplayRow } from "./discovery-rows.ts";
import { namedQuery as q } from "./discovery-statement.ts";
import { missionStateSql } from "../db/checks.ts";

export function discoveryReaderRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema}"`;
  return {
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

    /**
     * XP, active guild memberships (uuid -> guildXP) and engagement per category of one address: one
     * statement (six index lookups as JSON), one round trip.
     */
    async userContext(address: string, userId: string | null) {
      // Ponder stores hex columns lowercase, so equality on the lowercased address uses the indexes.
      type Counts = Record<string, number>;
      // No user_stats row: the three are null.
      type Stats = { [K in "totalXP" | "reputation" | "level"]: ChainRow<"userStats">[K] | null };
      type Memberships = Record<ChainRow<"guildMembers">["guildUuid"], ChainRow<"guildMembers">["guildXP"]>;
      const res = await q<Stats & { guilds: Memberships | null; completed: Counts | null; rated: Counts | null; views: Record<string, { count: number; dwellMs: number }> | null; searches: Counts | null }>(pool,
        `SELECT (SELECT total_xp FROM ${s}.user_stats WHERE address = $1) AS "totalXP",
                (SELECT reputation FROM ${s}.user_stats WHERE address = $1) AS reputation,
                (SELECT level FROM ${s}.user_stats WHERE address = $1) AS level,
                (SELECT json_object_agg(guild_uuid, guild_xp) FROM ${s}.guild_members WHERE account = $1 AND active) AS guilds,
                (SELECT json_object_agg(category, n) FROM (
                   SELECT dm.category, count(*)::int AS n FROM api.discovery_missions dm
                    WHERE dm.performer = $1 AND dm.state = ${missionStateSql("Completed")} AND dm.category IS NOT NULL GROUP BY dm.category) x) AS completed,
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
        totalXp: r.totalXP ?? 0,
        // Eligibility's side (as missions.repository eligibilityFacts: 0 and 1 without a row).
        reputation: r.reputation ?? 0,
        level: r.level ?? 1,
        guilds: new Map(Object.entries(r.guilds ?? {})),
        engagement: { completed: r.completed ?? {}, ratedWell: r.rated ?? {}, views: r.views ?? {}, searches: r.searches ?? {} },
      };
    },

    async recordEvent(e: { userId: string; kind: "view" | "search"; missionId?: string; category?: string | null; query?: string; dwellMs?: number }) {
      await pool.query({
        name: "discovery_event_insert", // every signed-in search writes one
        text: `INSERT INTO api.discovery_events (user_id, kind, mission_id, category, query, dwell_ms) VALUES ($1, $2, $3, $4, $5, $6)`,
        values: [e.userId, e.kind, e.missionId ?? null, e.category ?? null, e.query ?? null, e.dwellMs ?? 0],
      });
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
