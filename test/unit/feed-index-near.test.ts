// near() (the map from the in-memory index) = brute force over every mission, through
// inserts, moves (a location edit changes a mission's grid square), removals and re-layouts; circles
// across the antimeridian and near a pole included.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FeedStore, near } from "../../api/services/discovery/feed-index/index.ts";
import { distanceMeters } from "../../api/services/discovery/geo.ts";
import { viewLocation } from "../../api/services/discovery/location-privacy.ts";
import type { FeedIndexRow } from "../../api/repositories/discovery-feed-source.repository.ts";

const NOW = 1_800_000_000;
const CENTRES = [
  { lat: 52.52, lng: 13.405 }, // a dense city
  { lat: -16.5, lng: 179.97 }, // across the antimeridian
  { lat: 89.95, lng: 10 }, // a pole inside the larger circles
];
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

function mission(rnd: () => number, n: number): FeedIndexRow {
  const c = CENTRES[n % CENTRES.length]!;
  const located = rnd() > 0.1;
  let lat = c.lat + (rnd() - 0.5) * 0.3;
  lat = Math.max(-90, Math.min(90, lat));
  let lng = c.lng + (rnd() - 0.5) * 0.5;
  if (lng > 180) lng -= 360;
  if (lng < -180) lng += 360;
  const shown = viewLocation(lat, lng, false);
  return {
    id: `m${String(n).padStart(5, "0")}`, state: rnd() > 0.1 ? "Open" : "Accepted", poster: addr(1 + Math.floor(rnd() * 4)),
    performer: null, guildId: rnd() > 0.8 ? "g1" : null, reward: String(1 + Math.floor(rnd() * 1e8)),
    expiresAt: NOW + Math.floor((rnd() - 0.1) * 86400), category: rnd() > 0.5 ? "pets" : "tech",
    latitude: located ? lat : null, longitude: located ? lng : null,
    pubLatitude: located ? shown.latitude : null, pubLongitude: located ? shown.longitude : null,
    ratingSum: 0, ratingCount: 0, minGuildXp: rnd() > 0.7 ? Math.floor(rnd() * 500) : null,
    title: rnd() > 0.05 ? `Walk the dog ${n} ${"é".repeat(n % 3)}` : null, categoryText: rnd() > 0.5 ? "Pets" : null,
    minReputation: rnd() > 0.8 ? Math.floor(rnd() * 20) : null, premium: rnd() > 0.8,
  };
}

/** What a map marker shows of `m` (FeedStore.mapRows). */
const marker = (m: FeedIndexRow) => ({
  id: m.id, poster: m.poster, performer: m.performer, guild_uuid: m.guildId, reward: m.reward, expires_at: String(m.expiresAt),
  title: m.title ?? "", category: m.categoryText ?? "", latitude: m.latitude, longitude: m.longitude, min_guild_xp: m.minGuildXp,
  min_reputation: m.minReputation, premium: m.premium,
});

describe("feed index near()", () => {
  it("equals brute force: counts per shown position, the nearest by shown distance then id", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const store = new FeedStore({ block: 8 });
    const all = new Map<string, FeedIndexRow>();
    let n = 0;
    const q = fc.record({
      centre: fc.constantFrom(...CENTRES),
      dLat: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
      dLng: fc.double({ min: -0.1, max: 0.1, noNaN: true }),
      radius: fc.constantFrom(200, 1500, 8000, 40000),
      limit: fc.integer({ min: 0, max: 40 }),
      viewer: fc.constantFrom(undefined, addr(1), addr(3)),
      category: fc.constantFrom(undefined, "pets"),
      // Time moves both ways between queries: a group's expired count is by its sorted expiries.
      later: fc.constantFrom(0, 0, -7200, 7200, 43200),
    });
    let checked = 0;
    let nonEmpty = 0;
    for (const round of [0, 1, 2, 3]) {
      // Inserts, then moves and removals, then a re-layout (compact), between the query batches.
      for (let k = 0; k < 400; k++) {
        const m = mission(rnd, n++);
        all.set(m.id, m);
        store.upsert(m);
      }
      if (round >= 1) {
        for (const m of [...all.values()].filter((_, i) => i % 7 === round)) {
          const moved = { ...mission(rnd, Number(m.id.slice(1))), id: m.id };
          all.set(m.id, moved);
          store.upsert(moved);
        }
        for (const m of [...all.values()].filter((_, i) => i % 11 === round)) {
          all.delete(m.id);
          store.remove(m.id);
        }
      }
      if (round === 2) store.compact(NOW);
      for (const x of fc.sample(q, { numRuns: 30, seed: 100 + round })) {
        const lat = Math.max(-90, Math.min(90, x.centre.lat + x.dLat));
        let lng = x.centre.lng + x.dLng;
        if (lng > 180) lng -= 360;
        const now = NOW + x.later;
        const got = near(store, { latitude: lat, longitude: lng, radius: x.radius, nowSec: now, limit: x.limit, viewer: x.viewer, category: x.category });
        const inside = [...all.values()].filter((m) => m.state === "Open" && m.expiresAt > now && m.latitude !== null
          && (!x.category || m.category === x.category) && distanceMeters(lat, lng, m.latitude, m.longitude!) <= x.radius);
        const shown = inside.map((m) => {
          const loc = viewLocation(m.latitude!, m.longitude!, x.viewer === m.poster);
          return { id: m.id, loc, d: Math.round(distanceMeters(lat, lng, loc.latitude, loc.longitude) * 10) / 10 };
        }).sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
        expect(got.nearest, JSON.stringify(x)).toEqual(shown.slice(0, x.limit).map((s) => s.id));
        // The markers' rows come from the index: what was written last, through moves and re-layouts.
        expect(store.mapRows(got.nearest)).toEqual(got.nearest.map((id) => marker(all.get(id)!)));
        const counts = new Map<string, number>();
        for (const s of shown) counts.set(`${s.loc.latitude},${s.loc.longitude}`, (counts.get(`${s.loc.latitude},${s.loc.longitude}`) ?? 0) + 1);
        const mine = new Map(got.positions.map((p) => [`${p.latitude},${p.longitude}`, p.count]));
        expect(mine, JSON.stringify(x)).toEqual(counts);
        checked++;
        if (shown.length > x.limit && x.limit > 0) nonEmpty++;
      }
    }
    expect(checked).toBe(120);
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it("a dense point: the nearest where the limit falls are its smallest ids, through inserts, removals and expiries", () => {
    // Thousands of missions in one neighbourhood cell (a downtown): the circle holds the cell whole, so
    // the nearest come from the cell's id order (built on first use, rebuilt after a change).
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const store = new FeedStore({ block: 64 });
    const all = new Map<string, FeedIndexRow>();
    const c = CENTRES[0]!;
    const dense = (n: number): FeedIndexRow => {
      const lat = c.lat + (rnd() - 0.5) * 0.002, lng = c.lng + (rnd() - 0.5) * 0.003;
      const shown = viewLocation(lat, lng, false);
      // Ids in no relation to insertion order.
      const id = `d${Math.floor(rnd() * 1e9).toString(36)}-${n}`;
      return { ...mission(rnd, n), id, state: "Open", latitude: lat, longitude: lng, pubLatitude: shown.latitude, pubLongitude: shown.longitude,
        expiresAt: NOW + Math.floor((rnd() - 0.2) * 86400), category: "pets" };
    };
    for (let n = 0; n < 3000; n++) {
      const m = dense(n);
      all.set(m.id, m);
      store.upsert(m);
    }
    let tails = 0;
    for (const round of [0, 1, 2, 3, 4]) {
      if (round === 1) {
        // The smallest ids leave: the next query must not read a stale order.
        for (const id of [...all.keys()].sort().slice(0, 40)) {
          all.delete(id);
          store.remove(id);
        }
      }
      if (round === 2) {
        for (let n = 3000; n < 3200; n++) {
          const m = { ...dense(n), id: `a${n}` }; // ids before every earlier one
          all.set(m.id, m);
          store.upsert(m);
        }
      }
      if (round === 3) store.compact(NOW);
      for (const limit of [1, 7, 50, 100]) {
        for (const viewer of [undefined, addr(2)]) {
          const now = NOW + (round === 4 ? 3600 : 0);
          const got = near(store, { latitude: c.lat, longitude: c.lng, radius: 3000, nowSec: now, limit, viewer });
          const shown = [...all.values()].filter((m) => m.expiresAt > now && distanceMeters(c.lat, c.lng, m.latitude!, m.longitude!) <= 3000)
            .map((m) => {
              const loc = viewLocation(m.latitude!, m.longitude!, viewer === m.poster);
              return { id: m.id, d: Math.round(distanceMeters(c.lat, c.lng, loc.latitude, loc.longitude) * 10) / 10 };
            })
            .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1));
          expect(got.nearest, `round ${round} limit ${limit} viewer ${viewer}`).toEqual(shown.slice(0, limit).map((s) => s.id));
          // The cell's missions were not all read: the order stops at the limit.
          if (viewer === undefined && limit <= 50) {
            expect(got.visited).toBeLessThan(shown.length);
            tails++;
          }
        }
      }
    }
    expect(tails).toBe(15);
  });
});
