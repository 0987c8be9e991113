// The feed's relevance order from the feed index: one pass over the store's blocks, best bound first,
// scoring every matching mission with the exact operations of feed-scoring.ts, cheaply bounded first
// (the distance term, the only costly one, is computed only where the bound could still enter the
// page), keeping the best skip + take in a heap: page 50 costs what page 1 costs.
import { isEligible, type EligibilityMission, type EligibilityUser } from "../../../../domain/index.ts";
import { DISTANCE_HORIZON_M, distanceScore, NEUTRAL_SCORE, URGENCY_HOURS, WEIGHTS } from "../feed-scoring.ts";
import { distanceMeters, EARTH_RADIUS_M } from "../geo.ts";
import { WEEK } from "./block-bounds.ts";
import { BlockQueue, F, TopHeap } from "./heaps.ts";
import type { FeedStore } from "./store.ts";

export interface FeedIndexQuery {
  nowSec: number;
  category?: string;
  guildId?: string;
  latitude?: number;
  longitude?: number;
  viewer: string;
  experience: number;
  guilds: Map<string, number>;
  /** The reader's reputation and level (user_stats): eligibility's inputs. */
  reputation: number;
  level: number;
  preferences: Map<string, number>;
  weights: { reward: number; urgency: number; distance: number; xpMatch: number; posterReputation: number; categoryPreference: number };
  guildBoost: number;
  skip: number;
  take: number;
}

/** A ranked entry: the mission's id and its unrounded factors (combine() rounds them for display). */
export interface IndexRanked {
  id: string;
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

/**
 * A mission whose reader latitude differs by more than this is over 50 km away: great-circle distance
 * ≥ R·|Δφ|, and 0.4505° · π/180 · 6,371,008.8 m = 50,093 m. Its distance score is 0 without a haversine.
 */
const FAR_DLAT = 0.4505;
/** The meridian arc of one degree of latitude on the sphere of distanceMeters(). */
const METERS_PER_DEGREE_LAT = (EARTH_RADIUS_M * Math.PI) / 180;
const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * The page (skip, take) of the relevance order over the open, unexpired missions matching the
 * filters: eligible first, then finalScore desc, then id. Blocks are visited best bound first and
 * the visit stops at the first block that cannot reach the worst score kept. `scored`: missions
 * whose distance had to be computed; `visited`: missions read.
 */
export function rank(s: FeedStore, q: FeedIndexQuery): { rows: IndexRanked[]; scored: number; visited: number } {
  const n = Math.floor(q.skip) + Math.floor(q.take);
  const catFilter = q.category === undefined ? -1 : (s.cats.find(q.category.toLowerCase()) ?? -2);
  const guildFilter = q.guildId === undefined ? -1 : (s.guilds.find(q.guildId) ?? -2);
  if (n === 0 || catFilter === -2 || guildFilter === -2) return { rows: [], scored: 0, visited: 0 };
  // The reader's side, per category / guild id.
  const pref = new Float64Array(s.cats.size);
  for (let c = 1; c < pref.length; c++) pref[c] = q.preferences.get(s.cats.name(c)!) ?? 0;
  pref[0] = q.preferences.get("") ?? 0; // no category: the SQL reads coalesce(category, '')
  let maxPref = 0;
  for (const v of pref) if (v > maxPref) maxPref = v;
  const gxp = new Float64Array(s.guilds.size).fill(NaN);
  for (const [g, xp] of q.guilds) {
    const id = s.guilds.find(g);
    if (id !== undefined) gxp[id] = xp;
  }
  // Eligibility per mission by the one rule, on interned guild ids; one mission object, refilled.
  const reader: EligibilityUser<number> = {
    guildXp: (g) => (gxp[g] === gxp[g] ? gxp[g] : undefined), reputation: q.reputation, level: q.level,
  };
  const terms: EligibilityMission<number> = { guild: null, minGuildXp: null, minReputation: null, premium: false };
  const viewer = s.addrs.find(q.viewer.toLowerCase()) ?? -2;
  const located = q.latitude !== undefined && q.longitude !== undefined;
  const qLat = q.latitude ?? 0;
  const qLng = q.longitude ?? 0;
  const { reward: wr, urgency: wu, distance: wd, xpMatch: wx, posterReputation: wp, categoryPreference: wc } = q.weights;
  const e = q.experience;
  const now = q.nowSec;

  // Block bounds (the keys were built with WEIGHTS: other weights visit every block).
  const keyed = wr === WEIGHTS.reward && wp === WEIGHTS.posterReputation && wu === WEIGHTS.urgency && wd >= 0 && wx >= 0 && wc >= 0;
  const shift = WEIGHTS.urgency * (1 + now / WEEK);
  const band = FAR_DLAT + 0.01; // the party's exact point is within its cell (< 0.006° from the shown centre)
  const blocks = Math.ceil(s.size / s.B);
  const bounds = s.bounds;
  const order = new BlockQueue(blocks);
  const bound = new Float64Array(blocks);
  const onlyIneligible = new Uint8Array(blocks);
  for (let b = 0; b < blocks; b++) {
    if (bounds.empty[b]) continue;
    if (catFilter >= 0 && !(bounds.cats[b]! & (1 << Math.min(catFilter, 31)))) continue;
    const bg = bounds.guild[b]!;
    if (guildFilter >= 0 && bg !== guildFilter && bg !== -2) continue;
    let boost = 1;
    if (bg >= 0) {
      if (gxp[bg] === gxp[bg]) boost = q.guildBoost;
      else onlyIneligible[b] = 1;
    } else if (bg === -2) boost = Math.max(1, q.guildBoost);
    let dmax = NEUTRAL_SCORE;
    if (located) {
      const near = bounds.lo[b]! <= qLat + band && bounds.hi[b]! >= qLat - band;
      dmax = near ? 1 : bounds.noPoint[b] ? NEUTRAL_SCORE : 0;
    }
    const st = keyed ? Math.max(bounds.k1[b]!, bounds.k2[b]! + shift) + 1e-9 : Infinity;
    bound[b] = (st + wd * dmax + wx + wc * maxPref) * boost;
    order.add(b);
  }
  order.start(onlyIneligible, bound);

  const heap = new TopHeap(n, s.ids);
  let scored = 0;
  let visited = 0;
  const { exp, cat, guild, minXp, minRep, prem, rs, ps, lat, lng, plat, plng, poster, performer } = s;
  // `cut`: the worst kept score less half a rounding unit and a float margin: a sum below it rounds
  // below the worst kept.
  let full = false;
  let cut = -Infinity;
  let cutEligible = false;
  for (let b = order.next(); b >= 0; b = order.next()) {
    if (full) {
      if (cutEligible && (onlyIneligible[b] || bound[b]! < cut)) break; // every later block is worse
      if (!cutEligible && onlyIneligible[b] && bound[b]! < cut) continue;
    }
    const end = Math.min(s.size, (b + 1) * s.B);
    for (let i = b * s.B; i < end; i++) {
      const ex = exp[i]!;
      if (ex <= now) continue;
      const c = cat[i]!;
      if (catFilter >= 0 && c !== catFilter) continue;
      const g = guild[i]!;
      if (guildFilter >= 0 && g !== guildFilter) continue;
      visited++;
      const member = g >= 0 && gxp[g] === gxp[g]; // not NaN
      const mx = minXp[i]!, mr = minRep[i]!;
      terms.guild = g < 0 ? null : g;
      terms.minGuildXp = mx === mx ? mx : null;
      terms.minReputation = mr === mr ? mr : null;
      terms.premium = prem[i] === 1;
      const eligible = isEligible(reader, terms);
      if (full && cutEligible && !eligible) continue;
      const boost = member ? q.guildBoost : 1;
      const R = rs[i]!;
      const u = 1 - (ex - now) / 3600 / URGENCY_HOURS;
      const U = u < 0 ? 0 : u > 1 ? 1 : u;
      const xm = 1 - Math.abs(e - R);
      const X = xm < 0 ? 0 : xm > 1 ? 1 : xm;
      const P = ps[i]!;
      const C = pref[c]!;
      // The distance term's bound: exact (0.5) without a point or a reader location, 0 beyond the
      // latitude band, else at most 1 (computed below only if the page could take the mission).
      const mLat = lat[i]!;
      let D: number;
      let sLat = NaN;
      let sLng = NaN;
      let exact = true;
      if (!located || mLat !== mLat) D = NEUTRAL_SCORE;
      else {
        const party = poster[i] === viewer || performer[i] === viewer;
        sLat = party ? mLat : plat[i]!;
        sLng = party ? lng[i]! : plng[i]!;
        const dLat = Math.abs(sLat - qLat);
        if (dLat > FAR_DLAT) D = 0;
        else {
          // A bound from the latitudes alone: the great-circle distance is at least the meridian arc
          // R·|Δφ|; less 0.1 m for the response's rounding to 0.1 m and float error (it stays ≥ the term).
          const low = dLat * METERS_PER_DEGREE_LAT - 0.1;
          D = low > 0 ? 1 - low / DISTANCE_HORIZON_M : 1;
          exact = false;
        }
      }
      // Same operations, in the same order, as combine(): with D ≥ the true term, ≥ the exact sum.
      const sum = (wr * R + wu * U + wd * D + wx * X + wp * P + wc * C) * boost;
      if (full && eligible === cutEligible && sum < cut) continue;
      let score = r4(sum);
      if (!heap.admits(eligible, score, i)) continue;
      let distance: number | null = null;
      if (located && mLat === mLat) {
        distance = Math.round(distanceMeters(qLat, qLng, sLat, sLng) * 10) / 10;
        if (!exact) {
          scored++;
          D = distanceScore(distance);
          score = r4((wr * R + wu * U + wd * D + wx * X + wp * P + wc * C) * boost);
          if (!heap.admits(eligible, score, i)) continue;
        }
      }
      heap.push(eligible, score, i, distance, R, U, D, X, P, C, boost);
      if (heap.full()) {
        full = true;
        cut = heap.worstScore() - 0.00005 - 1e-9;
        cutEligible = heap.worstEligible();
      }
    }
  }
  const f = heap.f;
  const rows = heap.popWorst(heap.count() - Math.floor(q.skip)).map((r) => {
    const o = r * F;
    const distance = f[o]!;
    return {
      id: s.ids.get(heap.slotOf(r))!, eligible: heap.eligibleOf(r), distance: distance === distance ? distance : null,
      reward_score: f[o + 1]!, urgency_score: f[o + 2]!, distance_score: f[o + 3]!, xp_match_score: f[o + 4]!,
      poster_score: f[o + 5]!, category_score: f[o + 6]!, guild_boost: f[o + 7]!, final_score: heap.scoreOf(r),
    };
  });
  return { rows, scored, visited };
}
