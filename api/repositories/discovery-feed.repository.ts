// The personal feed ranked in SQL over the read model, with the formula of
// api/services/discovery/feed-scoring.ts (the reference; the property test compares the two over random
// rows and pages). The user's side (experience, guild memberships, category preferences) is computed
// once per request in JS and passed as parameters.
//
// By relevance (the default) a page does not score every open mission. A mission's score is its static
// part A = 0.25·reward + 0.1·poster + 0.2·urgency plus what the reader adds (distance ≤ 0.2, xp match ≤
// 0.15, category ≤ 0.1 × the reader's top preference), times 1.5 in the reader's guilds. So, for the
// N = skip + take best (threshold algorithm, one statement):
//   1. score the reader's guild missions whole (few) and the B missions outside guilds with the best A
//      (two index scans: A = max(k1, k2 + 0.2·(1 + now/604800)), migrations/0019_discovery_feed.sql);
//      the N-th best eligible score among them, t0, is at most the page's last score;
//   2. score every mission outside guilds whose A + the reader's slack reaches t0 (two index range
//      scans) with the rows of step 1, and take the page from them. A mission left out scores below
//      t0, so the page equals the full ranking's.
// Missions of guilds the reader is not in are ineligible and rank last: when step 1 finds fewer than N
// eligible rows, and for the other sorts and full-text queries, every matching mission is scored
// (`plan: "full"`).
import type pg from "pg";
import { CELL_SLACK_M, chord } from "./discovery-cells.sql.ts";
import type { CandidateRow } from "./discovery.repository.ts";

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

const COLS = `dm.id, dm.poster, dm.performer, dm.guild_uuid, dm.reward::text AS reward, dm.expires_at::text AS expires_at,
  dm.details_hash, dm.title, dm.category, dm.latitude, dm.longitude, dm.rating_sum, dm.rating_count, dm.min_guild_xp`;
// float8 expressions in the operation order of feed-scoring.ts / geo.ts (same IEEE operations, so the
// same doubles up to the last bit of the libm functions): radians as (d * pi) / 180, x² as x * x,
// Math.round(x) as floor(x + 0.5), clamp01 as least(1, greatest(0, x)).
const clamp = (x: string) => `least(1::float8, greatest(0::float8, ${x}))`;
const rad = (x: string) => `((${x}) * pi() / 180)`;
const haversine = (lat1: string, lng1: string, lat2: string, lng2: string) => {
  const sLat = `sin(${rad(`${lat2} - ${lat1}`)} / 2)`;
  const sLng = `sin(${rad(`${lng2} - ${lng1}`)} / 2)`;
  return `(2 * 6371008.8::float8 * asin(least(1::float8, sqrt(${sLat} * ${sLat} + cos(${rad(lat1)}) * cos(${rad(lat2)}) * (${sLng} * ${sLng})))))`;
};

export interface RankResult {
  rows: RankedRow[];
  /** "pruned": the threshold algorithm above; "full": every matching open mission was scored. */
  plan: "pruned" | "full";
  /** Missions scored (pruned plan only): what the page cost. */
  candidates?: number;
}

/** The weights the indexed keys k1/k2 were built with (migration 0019); pruning needs them unchanged. */
const INDEXED = { reward: 0.25, posterReputation: 0.1, urgency: 0.2 } as const;
/** Below the 4-decimal rounding of finalScore (half a unit is 0.00005) and any float difference. */
const MARGIN = 0.0001;
const K1 = `api.feed_k1(dm.reward, dm.rating_sum, dm.rating_count)`;
const K2 = `api.feed_k2(dm.reward, dm.rating_sum, dm.rating_count, dm.expires_at)`;
/** Beyond this distance the distance score is 0 (feed-scoring.ts distanceScore). */
const NEAR_M = 50_000;

export function discoveryFeedRepository(pool: pg.Pool) {
  /** The statement's parameters, filters and the scoring of the rows of `from` (a FROM item named dm). */
  function build(f: FeedRankQuery) {
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const now = `${p(f.nowSec)}::bigint`;
    const where = [`dm.state = 'Open'`, `dm.expires_at > ${now}`];
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
        THEN floor(${haversine(lat, lng, shownLat, shownLng)} * 10 + 0.5) / 10 END`;
    }
    const guildIds = `${p([...f.guilds.keys()])}::text[]`;
    const guildXps = p([...f.guilds.values()]);
    const prefKeys = p([...f.preferences.keys()]);
    const prefValues = p([...f.preferences.values()]);
    const experience = p(f.experience);
    const boost = p(f.guildBoost);
    const w = f.weights;
    const [wr, wu, wd, wx, wp, wc] = [w.reward, w.urgency, w.distance, w.xpMatch, w.posterReputation, w.categoryPreference].map((x) => `${p(x)}::float8`);
    const filter = where.join(" AND ");
    /** Every column of RankedRow for the open, matching missions of `from` (and `also`, if given). */
    const scored = (from: string, also?: string) => `
      SELECT f.*, floor((${wr} * f.reward_score + ${wu} * f.urgency_score + ${wd} * f.distance_score + ${wx} * f.xp_match_score
                         + ${wp} * f.poster_score + ${wc} * f.category_score) * f.guild_boost * 10000 + 0.5) / 10000 AS final_score
        FROM (
          SELECT c.*,
                 (c.guild_uuid IS NULL OR (c.guild_xp IS NOT NULL AND (c.min_guild_xp IS NULL OR c.guild_xp >= c.min_guild_xp))) AS eligible,
                 CASE WHEN c.distance IS NULL THEN 0.5::float8 ELSE ${clamp(`1 - c.distance / 50000`)} END AS distance_score,
                 ${clamp(`1 - abs(${experience}::float8 - c.reward_score)`)} AS xp_match_score,
                 CASE WHEN c.guild_xp IS NOT NULL THEN ${boost}::float8 ELSE 1::float8 END AS guild_boost
            FROM (
              SELECT ${COLS}, ${distance} AS distance,
                     ${clamp(`log(1 + dm.reward::float8 / 1e6) / log(1001::float8)`)} AS reward_score,
                     ${clamp(`1 - (dm.expires_at - ${now})::float8 / 3600 / 168`)} AS urgency_score,
                     g.xp AS guild_xp,
                     CASE WHEN dm.rating_count > 0 THEN ${clamp(`(dm.rating_sum::float8 / dm.rating_count - 1) / 4`)} ELSE 0.5::float8 END AS poster_score,
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

  /** The threshold algorithm of the header (two statements); null when step 1 finds fewer than N eligible rows. */
  async function pruned(f: FeedRankQuery): Promise<RankResult | null> {
    const n = Math.floor(f.skip) + Math.floor(f.take);
    const batch = Math.max(50, n);
    const one = build(f);
    const outside = `FROM api.discovery_missions dm WHERE ${one.filter} AND dm.guild_uuid IS NULL`;
    // With a location, the nearest missions too (their distance term is the highest): t0 is then close
    // to the page's last score where the page is made of nearby missions.
    const nearest = f.latitude !== undefined && f.longitude !== undefined
      ? `\n          UNION (SELECT dm.id ${outside} AND dm.geo IS NOT NULL ORDER BY dm.geo <-> api.geo_ecef(${one.p(f.latitude)}::float8, ${one.p(f.longitude)}::float8) LIMIT ${batch})`
      : "";
    const first = await pool.query<{ t0: number }>({
      values: one.params,
      text: `
        WITH r1ids AS MATERIALIZED (
          (SELECT dm.id FROM api.discovery_missions dm WHERE ${one.filter} AND dm.guild_uuid = ANY(${one.guildIds}))
          UNION (SELECT dm.id ${outside} ORDER BY ${K1} DESC LIMIT ${batch})
          UNION (SELECT dm.id ${outside} ORDER BY ${K2} DESC LIMIT ${batch})${nearest})
        SELECT s.final_score AS t0 FROM (${one.scored("api.discovery_missions dm JOIN r1ids ON r1ids.id = dm.id")}) s
         WHERE s.eligible ORDER BY s.final_score DESC OFFSET ${n - 1} LIMIT 1`,
    });
    const t0 = first.rows[0]?.t0;
    if (t0 === undefined) return null;

    // Step 2: the bound of a mission outside guilds is A + xp match + category + distance, where the
    // distance term is at most w.distance within 50 km (plus the shown cell's offset) of the reader,
    // w.distance / 2 without a point or a reader's location, and 0 beyond. Three thresholds on A.
    const w = f.weights;
    const base = w.xpMatch + w.categoryPreference * Math.max(0, ...f.preferences.values()) + MARGIN;
    const located = f.latitude !== undefined && f.longitude !== undefined;
    const two = build(f);
    const shift = `${w.urgency}::float8 * (1 + ${two.now}::float8 / 604800)`;
    const arms = [`dm.guild_uuid = ANY(${two.guildIds})`];
    const above = (x: number, extra = "") => {
      const v = `${two.p(x)}::float8`;
      arms.push(`(dm.guild_uuid IS NULL${extra} AND ${K1} >= ${v})`, `(dm.guild_uuid IS NULL${extra} AND ${K2} >= ${v} - ${shift})`);
    };
    above(t0 - base - w.distance / 2); // anywhere: far (0), no point (0.5) or no reader location (0.5)
    if (located) {
      const box = `cube_enlarge(api.geo_ecef(${two.p(f.latitude)}::float8, ${two.p(f.longitude)}::float8), ${two.p(chord(NEAR_M + CELL_SLACK_M))}::float8, 3)`;
      above(t0 - base - w.distance, ` AND dm.geo <@ ${box}`);
    }
    const res = await pool.query<RankedRow & { candidates: number }>({
      values: two.params,
      text: `
        SELECT s.*, count(*) OVER ()::int AS candidates
          FROM (${two.scored("api.discovery_missions dm", `(${arms.join("\n OR ")})`)}) s
         ORDER BY s.eligible DESC, s.final_score DESC, s.id COLLATE "C" ${tail(f.skip, f.take)}`,
    });
    const candidates = res.rows[0]?.candidates ?? 0;
    const rows = res.rows.map(({ candidates: _c, ...r }) => r as RankedRow);
    return { rows, plan: "pruned", candidates };
  }

  const canPrune = (f: FeedRankQuery) =>
    f.sortBy === "relevance" && !f.searchQuery && f.take > 0 &&
    f.weights.reward === INDEXED.reward && f.weights.posterReputation === INDEXED.posterReputation && f.weights.urgency === INDEXED.urgency;

  return {
    /** One page of the ranked feed (eligible first, then the sort's key, finalScore, id), and how it was found. */
    async rank(f: FeedRankQuery): Promise<RankResult> {
      if (canPrune(f)) {
        const r = await pruned(f);
        if (r) return r;
      }
      return { rows: await full(f), plan: "full" };
    },
    async page(f: FeedRankQuery): Promise<RankedRow[]> {
      return (await this.rank(f)).rows;
    },

    /**
     * The feed's exact total: open, unexpired missions matching the filters. Without a text query it is
     * a sum over the (category, guild) totals (migration 0019) less the expired missions still Open
     * (the expiry index); with one, a count over the text index's matches.
     */
    async total(f: { nowSec: number; category?: string; guildId?: string; searchQuery?: string }): Promise<number> {
      const params: unknown[] = [f.nowSec];
      const p = (v: unknown) => (params.push(v), `$${params.length}`);
      const kept: string[] = [];
      const gone = [`dm.state = 'Open'`];
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
      const { rows } = await pool.query<{ n: string }>({ text: sql, values: params });
      return Number(rows[0]?.n ?? 0);
    },
  };
}
export type DiscoveryFeedRepository = ReturnType<typeof discoveryFeedRepository>;
