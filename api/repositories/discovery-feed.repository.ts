// The personal feed ranked in SQL over the read model, with the formula of
// api/services/discovery/feed-scoring.ts as SQL expressions (discovery-feed.sql.ts; the property test
// compares the ranking with the reference over random rows and pages). The user's side (experience,
// guild memberships, category preferences) is computed once per request in JS and passed as
// parameters. Every matching open mission is scored: this serves the sorts by reward, distance and
// urgency and full-text queries; the default order (relevance without a text query) is ranked by the
// in-memory feed index (api/services/discovery/feed-index/).
import type pg from "pg";
import { missionStateSql } from "../db/checks.ts";
import { hasUnlock } from "../../domain/index.ts";
import {
  distanceScoreSql, finalScoreSql, posterScoreSql, rewardScoreSql, shownDistanceSql, urgencyScoreSql, xpMatchScoreSql,
} from "./discovery-feed.sql.ts";
import { CANDIDATE_COLUMNS as COLS, type CandidateRow } from "./discovery-rows.ts";

export interface FeedRankQuery {
  nowSec: number;
  category?: string;
  guildId?: string;
  searchQuery?: string;
  latitude?: number;
  longitude?: number;
  /** Lowercased address of the reader: their own missions are scored by the exact point. */
  viewer: string;
  /** min(1, userXP / level-11 XP): the reader's side of xpMatch. */
  experience: number;
  /** Active memberships: guild uuid -> guildXP. */
  guilds: Map<string, number>;
  /** The reader's reputation and level (user_stats): eligibility's inputs. */
  reputation: number;
  level: number;
  /** Lowercased category -> preference 0..1. */
  preferences: Map<string, number>;
  weights: { reward: number; urgency: number; distance: number; xpMatch: number; posterReputation: number; categoryPreference: number };
  guildBoost: number;
  sortBy: "relevance" | "reward" | "distance" | "urgency";
  skip: number;
  take: number;
}

/** A ranked row: the candidate plus its unrounded factors (combine() rounds them for display). */
export interface RankedRow extends CandidateRow {
  eligible: boolean;
  distance: number | null;
  reward_score: number;
  urgency_score: number;
  distance_score: number;
  xp_match_score: number;
  poster_score: number;
  category_score: number;
  guild_boost: number;
  final_score: number;
}

export function discoveryFeedRepository(pool: pg.Pool) {
  /** The statement's parameters, filters and the scoring of the rows of `from` (a FROM item named dm). */
  function build(f: FeedRankQuery) {
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const now = `${p(f.nowSec)}::bigint`;
    const where = [`dm.state = ${missionStateSql("Open")}`, `dm.expires_at > ${now}`];
    if (f.category) where.push(`dm.category_lc = lower(${p(f.category)})`);
    if (f.guildId) where.push(`dm.guild_uuid = ${p(f.guildId)}`);
    if (f.searchQuery) where.push(`dm.search_vector @@ websearch_to_tsquery('english', ${p(f.searchQuery)})`);
    let distance = "NULL::float8";
    if (f.latitude !== undefined && f.longitude !== undefined) {
      const v = `${p(f.viewer.toLowerCase())}::text`;
      const party = `(dm.poster = ${v} OR coalesce(dm.performer = ${v}, false))`;
      const lat = `${p(f.latitude)}::float8`;
      const lng = `${p(f.longitude)}::float8`;
      const shownLat = `CASE WHEN ${party} THEN dm.latitude ELSE dm.pub_latitude END`;
      const shownLng = `CASE WHEN ${party} THEN dm.longitude ELSE dm.pub_longitude END`;
      // The distance the reader is shown, to 0.1 m (discovery.service.ts shownDistance).
      distance = `CASE WHEN dm.latitude IS NOT NULL AND dm.longitude IS NOT NULL
        THEN ${shownDistanceSql(lat, lng, shownLat, shownLng)} END`;
    }
    const guildIds = `${p([...f.guilds.keys()])}::text[]`;
    const guildXps = p([...f.guilds.values()]);
    const prefKeys = p([...f.preferences.keys()]);
    const prefValues = p([...f.preferences.values()]);
    const experience = p(f.experience);
    const boost = p(f.guildBoost);
    const reputation = `${p(f.reputation)}::int`;
    const premiumOk = `${p(hasUnlock(f.level, "premium_missions"))}::boolean`;
    const w = f.weights;
    const [wr, wu, wd, wx, wp, wc] = [w.reward, w.urgency, w.distance, w.xpMatch, w.posterReputation, w.categoryPreference].map((x) => `${p(x)}::float8`);
    const weights = { reward: wr!, urgency: wu!, distance: wd!, xpMatch: wx!, posterReputation: wp!, categoryPreference: wc! };
    const factors = {
      reward: "f.reward_score", urgency: "f.urgency_score", distance: "f.distance_score", xpMatch: "f.xp_match_score",
      posterReputation: "f.poster_score", categoryPreference: "f.category_score",
    };
    const filter = where.join(" AND ");
    /** Every column of RankedRow for the open, matching missions of `from` (and `also`, if given). */
    const scored = (from: string, also?: string) => `
      SELECT f.*, ${finalScoreSql(weights, factors, "f.guild_boost")} AS final_score
        FROM (
          SELECT c.*,
                 -- The order's copy of eligibility() (domain/eligibility.ts); the response's flag is that function's.
                 ((c.guild_uuid IS NULL OR (c.guild_xp IS NOT NULL AND (c.min_guild_xp IS NULL OR c.guild_xp >= c.min_guild_xp)))
                  AND (c.min_reputation IS NULL OR ${reputation} >= c.min_reputation)
                  AND (NOT c.premium OR ${premiumOk})) AS eligible,
                 ${distanceScoreSql("c.distance")} AS distance_score,
                 ${xpMatchScoreSql(experience, "c.reward_score")} AS xp_match_score,
                 CASE WHEN c.guild_xp IS NOT NULL THEN ${boost}::float8 ELSE 1::float8 END AS guild_boost
            FROM (
              SELECT ${COLS}, ${distance} AS distance,
                     ${rewardScoreSql("dm.reward")} AS reward_score,
                     ${urgencyScoreSql("dm.expires_at", now)} AS urgency_score,
                     g.xp AS guild_xp,
                     ${posterScoreSql("dm.rating_sum", "dm.rating_count")} AS poster_score,
                     coalesce((SELECT cp.v FROM unnest(${prefKeys}::text[], ${prefValues}::float8[]) AS cp(k, v)
                                WHERE cp.k = coalesce(dm.category_lc, '') LIMIT 1), 0::float8) AS category_score
                FROM ${from}
                LEFT JOIN LATERAL (SELECT x.xp FROM unnest(${guildIds}, ${guildXps}::int[]) AS x(id, xp) WHERE x.id = dm.guild_uuid LIMIT 1) g ON true
               WHERE ${filter}${also ? ` AND ${also}` : ""}) c) f`;
    return { params, p, now, filter, guildIds, scored };
  }

  const tail = (skip: number, take: number) => `OFFSET ${Math.floor(skip)} LIMIT ${Math.floor(take)}`;

  async function full(f: FeedRankQuery): Promise<RankedRow[]> {
    const b = build(f);
    const order = {
      relevance: "",
      reward: "s.reward::numeric DESC,",
      distance: "s.distance ASC NULLS LAST,",
      urgency: "s.expires_at::bigint ASC,",
    }[f.sortBy];
    const sql = `SELECT s.* FROM (${b.scored("api.discovery_missions dm")}) s
      ORDER BY s.eligible DESC, ${order} s.final_score DESC, s.id COLLATE "C" ${tail(f.skip, f.take)}`;
    return (await pool.query<RankedRow>({ text: sql, values: b.params })).rows;
  }

  return {
    /** One page of the ranked feed (eligible first, then the sort's key, finalScore, id). */
    page: full,

    /**
     * The feed's exact total: open, unexpired missions matching the filters. Without a text query it is
     * a sum over the (category, guild) totals (migration 0019) less the expired missions still Open
     * (the expiry index); with one, a count over the text index's matches.
     */
    async total(f: { nowSec: number; category?: string; guildId?: string; searchQuery?: string }): Promise<number> {
      const params: unknown[] = [f.nowSec];
      const p = (v: unknown) => (params.push(v), `$${params.length}`);
      const kept: string[] = [];
      const gone = [`dm.state = ${missionStateSql("Open")}`];
      if (f.category) {
        const c = p(f.category);
        kept.push(`t.category_key = lower(${c})`);
        gone.push(`dm.category_lc = lower(${c})`);
      }
      if (f.guildId) {
        const g = p(f.guildId);
        kept.push(`t.guild_key = ${g}`);
        gone.push(`dm.guild_uuid = ${g}`);
      }
      let sql: string;
      if (f.searchQuery) {
        gone.push(`dm.search_vector @@ websearch_to_tsquery('english', ${p(f.searchQuery)})`);
        sql = `SELECT count(*)::text AS n FROM api.discovery_missions dm WHERE ${gone.join(" AND ")} AND dm.expires_at > $1`;
      } else {
        sql = `SELECT ((SELECT coalesce(sum(t.open_count), 0) FROM api.discovery_totals t ${kept.length ? `WHERE ${kept.join(" AND ")}` : ""})
                     - (SELECT count(*) FROM api.discovery_missions dm WHERE ${gone.join(" AND ")} AND dm.expires_at <= $1))::text AS n`;
      }
      // Named by its shape (which filters it has): one parse and plan per connection, not per feed page.
      const name = `feed_total_${f.category ? "c" : ""}${f.guildId ? "g" : ""}${f.searchQuery ? "q" : ""}`;
      const { rows } = await pool.query<{ n: string }>({ name, text: sql, values: params });
      return Number(rows[0]?.n ?? 0);
    },
  };
}
export type DiscoveryFeedRepository = ReturnType<typeof discoveryFeedRepository>;
