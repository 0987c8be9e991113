// rank() (the feed's relevance order from the in-memory index) = brute force over every
// mission with feed-scoring.ts (the spec's formula), on any page: missions spread over ~70 km so the
// distance term decides, small blocks so the block bounds and the per-mission bounds prune, deep pages
// (the heap holds skip + take and the page is its tail), guild boosts and ineligible missions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FeedStore, rank } from "../../api/services/discovery/feed-index/index.ts";
import {
  combine, distanceScore, experience, GUILD_BOOST, posterReputationScore, rewardScore, sortFeed, urgencyScore, WEIGHTS, xpMatchScore,
} from "../../api/services/discovery/feed-scoring.ts";
import { distanceMeters } from "../../api/services/discovery/geo.ts";
import { viewLocation } from "../../api/services/discovery/location-privacy.ts";
import type { FeedIndexRow } from "../../api/repositories/discovery-feed-source.repository.ts";

const NOW = 1_800_000_000;
const CENTRE = { lat: 48.85, lng: 2.35 };
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const RATINGS = new Map([[addr(1), [0, 0]], [addr(2), [9, 3]], [addr(3), [20, 4]], [addr(4), [5, 5]]]);

function mission(rnd: () => number, n: number): FeedIndexRow {
  const located = rnd() > 0.1;
  const lat = CENTRE.lat + (rnd() - 0.5) * 1.2;
  const lng = CENTRE.lng + (rnd() - 0.5) * 1.8;
  const shown = viewLocation(lat, lng, false);
  const poster = addr(1 + Math.floor(rnd() * 4));
  const [ratingSum, ratingCount] = RATINGS.get(poster)!;
  return {
    id: `m${String(n).padStart(5, "0")}`, state: rnd() > 0.05 ? "Open" : "Accepted", poster,
    performer: rnd() > 0.9 ? addr(9) : null, guildId: rnd() > 0.85 ? (rnd() > 0.5 ? "g1" : "g2") : null,
    reward: String(1 + Math.floor(rnd() * 2e9)), expiresAt: NOW + Math.floor((rnd() - 0.05) * 8 * 86400),
    category: rnd() > 0.5 ? "pets" : "tech", latitude: located ? lat : null, longitude: located ? lng : null,
    pubLatitude: located ? shown.latitude : null, pubLongitude: located ? shown.longitude : null,
    ratingSum, ratingCount, minGuildXp: rnd() > 0.5 ? 40 : null, title: null, categoryText: null,
    minReputation: rnd() > 0.8 ? 5 : null, premium: rnd() > 0.85,
  };
}

describe("feed index rank()", () => {
  it("equals the brute-force relevance order over every mission, deep pages included", () => {
    let seed = 5;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const store = new FeedStore({ block: 8 });
    const all: FeedIndexRow[] = [];
    for (let n = 0; n < 2_000; n++) {
      const m = mission(rnd, n);
      all.push(m);
      store.upsert(m);
    }
    store.compact(NOW);
    const q = fc.record({
      located: fc.constantFrom(true, true, true, false),
      dLat: fc.double({ min: -0.4, max: 0.4, noNaN: true }),
      dLng: fc.double({ min: -0.6, max: 0.6, noNaN: true }),
      viewer: fc.constantFrom(addr(1), addr(9), addr(77)),
      guildXp: fc.constantFrom(null, 10, 50),
      category: fc.constantFrom(undefined, undefined, "pets"),
      totalXp: fc.constantFrom(0, 900, 4000),
      prefers: fc.constantFrom(0, 0.4, 1),
      skip: fc.constantFrom(0, 0, 7, 60, 300, 980),
      take: fc.integer({ min: 1, max: 40 }),
      later: fc.constantFrom(0, 3_600, 86_400),
      reputation: fc.constantFrom(-3, 0, 5, 12),
      level: fc.constantFrom(1, 5, 6, 11),
    });
    let checked = 0;
    let deep = 0;
    let pruned = 0;
    for (const x of fc.sample(q, { numRuns: 150, seed: 21 })) {
      const now = NOW + x.later;
      const lat = x.located ? CENTRE.lat + x.dLat : undefined;
      const lng = x.located ? CENTRE.lng + x.dLng : undefined;
      const guilds = new Map<string, number>(x.guildXp === null ? [] : [["g1", x.guildXp]]);
      const preferences = new Map([["pets", x.prefers]]);
      const got = rank(store, {
        nowSec: now, category: x.category, latitude: lat, longitude: lng, viewer: x.viewer, experience: experience(x.totalXp),
        guilds, reputation: x.reputation, level: x.level, preferences, weights: WEIGHTS, guildBoost: GUILD_BOOST, skip: x.skip, take: x.take,
      });
      const reference = sortFeed(all.filter((m) => m.state === "Open" && m.expiresAt > now && (!x.category || m.category === x.category)).map((m) => {
        const party = x.viewer === m.poster || x.viewer === m.performer;
        const loc = m.latitude === null ? null : viewLocation(m.latitude, m.longitude!, party);
        const d = lat === undefined || lng === undefined || loc === null ? null : Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10;
        const rs = rewardScore(BigInt(m.reward));
        const member = m.guildId !== null && guilds.has(m.guildId);
        const factors = combine({
          eligibility: (m.guildId === null || (member && (m.minGuildXp === null || guilds.get(m.guildId)! >= m.minGuildXp)))
            && (m.minReputation === null || x.reputation >= m.minReputation) && (!m.premium || x.level >= 6),
          rewardScore: rs, urgencyScore: urgencyScore(m.expiresAt, now), distanceScore: distanceScore(d),
          xpMatchScore: xpMatchScore(x.totalXp, rs), guildBoost: member ? GUILD_BOOST : 1,
          posterReputationScore: posterReputationScore(m.ratingSum, m.ratingCount), categoryPreferenceScore: preferences.get(m.category ?? "") ?? 0,
        });
        return { id: m.id, reward: BigInt(m.reward), distance: d, expiresAt: m.expiresAt, factors };
      }), "relevance").slice(x.skip, x.skip + x.take);
      expect(got.rows.map((r) => r.id), JSON.stringify(x)).toEqual(reference.map((r) => r.id));
      expect(got.rows.map((r) => [r.distance, combine({
        eligibility: r.eligible, rewardScore: r.reward_score, urgencyScore: r.urgency_score, distanceScore: r.distance_score,
        xpMatchScore: r.xp_match_score, guildBoost: r.guild_boost, posterReputationScore: r.poster_score, categoryPreferenceScore: r.category_score,
      })]), JSON.stringify(x)).toEqual(reference.map((r) => [r.distance, r.factors]));
      checked++;
      if (x.skip >= 300 && reference.length === x.take) deep++;
      // The bounds at work: a first page reads under a tenth of the matching missions.
      const matching = all.filter((m) => m.state === "Open" && m.expiresAt > now && (!x.category || m.category === x.category)).length;
      if (x.skip === 0 && got.visited * 10 < matching) pruned++;
    }
    expect(checked).toBe(150);
    expect(deep).toBeGreaterThan(10);
    expect(pruned).toBeGreaterThan(10);
  });
});
