// Map A/B aid, in memory only (not part of `npm run bench`): the feed index of two builds, the
// checkout at OLD and this one, each loaded with the same synthetic open missions spread as the bench
// dataset spreads them (cities.ts: metro gaussians with dense downtowns; 70 % of N open), then the map's
// in-memory work per request (near(), the page's rows, the clusters) on both, answers compared, and CPU
// per request in rounds that alternate old and new. No PostgreSQL: a 1M-mission index in a minute.
//   OLD=/tmp/old npx tsx script/bench/lib/discovery-map-ab.ts [missions=1000000] [requests=300] [rounds=8] [radii=500,5000,50000]
import path from "node:path";
import * as newCluster from "../../../api/services/discovery/cluster.ts";
import * as newIndex from "../../../api/services/discovery/feed-index/index.ts";
import { viewLocation } from "../../../api/services/discovery/location-privacy.ts";
import type { FeedIndexRow } from "../../../api/repositories/discovery-feed-source.repository.ts";
import { CITIES, clusterPoint, cumulativeWeights } from "./cities.ts";

type Index = typeof newIndex;
type Cluster = typeof newCluster;

/** mulberry32: a small deterministic generator whose consecutive draws are not on a lattice (as an LCG's are). */
function lcg(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` open missions, deterministic. */
function missions(n: number, now: number): FeedIndexRow[] {
  const rnd = lcg(1234);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const cum = cumulativeWeights();
  const out: FeedIndexRow[] = [];
  for (let k = 0; k < n; k++) {
    const u = rnd();
    const city = CITIES[cum.findIndex((w) => u <= w)]!;
    const { lat, lng } = clusterPoint(city, rnd() < city.downtown, normal(), normal());
    const shown = viewLocation(lat, lng, false);
    const poster = Math.floor(rnd() ** 2 * (n / 10));
    out.push({
      id: `${(k * 2654435761 >>> 0).toString(16).padStart(8, "0")}-${k}`, state: "Open",
      poster: `0x${poster.toString(16).padStart(40, "0")}`, performer: null, guildId: rnd() < 0.1 ? `g${Math.floor(rnd() * 200)}` : null,
      reward: String(1_000_000 + Math.floor(rnd() * 1e8)), expiresAt: now + Math.floor((rnd() - 0.002) * 7 * 86400),
      category: ["delivery", "pets", "tech", "garden"][k % 4]!, latitude: lat, longitude: lng,
      pubLatitude: shown.latitude, pubLongitude: shown.longitude, ratingSum: 0, ratingCount: 0,
      minGuildXp: null, minReputation: null, premium: false, title: `Fix bike #${k}`, categoryText: "Tech",
    });
  }
  return out;
}

/** The map's in-memory work of one request, as feed-index/sync.ts and the service do it. */
function mapRequest(ix: Index, cl: Cluster, store: InstanceType<Index["FeedStore"]>, q: Parameters<Index["near"]>[1]) {
  const found = ix.near(store, q);
  const withSlots = found as typeof found & { slots?: number[] };
  const s = store as typeof store & { mapRowsAt?: (slots: number[], ids: string[]) => unknown[] };
  const rows = withSlots.slots && s.mapRowsAt ? s.mapRowsAt(withSlots.slots, found.nearest) : store.mapRows(found.nearest);
  const clusters = cl.clusterPoints(found.positions, cl.zoomForRadius(q.latitude, q.radius));
  return { nearest: found.nearest, positions: found.positions, rows, clusters };
}

async function main() {
  const oldDir = process.env.OLD;
  if (!oldDir) throw new Error("OLD=<directory of the other checkout> is required");
  const N = Number(process.argv[2] ?? 1_000_000);
  const n = Number(process.argv[3] ?? 300);
  const rounds = Number(process.argv[4] ?? 8);
  const radii = (process.argv[5] ?? "500,5000,50000").split(",").map(Number);
  const oldIndex = (await import(path.resolve(oldDir, "api/services/discovery/feed-index/index.ts"))) as Index;
  const oldCluster = (await import(path.resolve(oldDir, "api/services/discovery/cluster.ts"))) as Cluster;
  const now = Math.floor(Date.now() / 1000);
  const rows = missions(Math.round(N * 0.7), now);
  const builds = {
    old: { ix: oldIndex, cl: oldCluster, store: new oldIndex.FeedStore() },
    new: { ix: newIndex, cl: newCluster, store: new newIndex.FeedStore() },
  };
  for (const b of Object.values(builds)) {
    for (const r of rows) b.store.upsert(r);
    b.store.compact(now);
  }
  rows.length = 0;
  // Same answers: every city, centres around it, radii, limits, a category, viewers.
  const rnd = lcg(77);
  let compared = 0;
  for (let k = 0; k < 600; k++) {
    const c = CITIES[k % CITIES.length]!;
    const q = {
      latitude: c.lat + (rnd() - 0.5) * 0.2, longitude: c.lng + (rnd() - 0.5) * 0.2, radius: [300, 500, 2000, 5000, 12000, 50000][k % 6]!,
      nowSec: now, limit: [1, 20, 50, 100][k % 4]!, ...(k % 9 === 0 ? { category: "pets" } : {}),
      ...(k % 5 === 0 ? { viewer: `0x${Math.floor(rnd() * 50).toString(16).padStart(40, "0")}` } : {}),
    };
    const a = JSON.stringify(mapRequest(builds.old.ix, builds.old.cl, builds.old.store, q));
    const b = JSON.stringify(mapRequest(builds.new.ix, builds.new.cl, builds.new.store, q));
    if (a !== b) throw new Error(`answers differ for ${JSON.stringify(q)}`);
    compared++;
  }
  console.log(`identical: ${compared} map answers (nearest, positions, rows, clusters), ${builds.new.store.count()} open missions`);
  const city = CITIES[0]!;
  // Both builds optimised before any round counts (the first rounds otherwise measure the compiler).
  for (const b of Object.values(builds)) {
    for (const radius of radii) for (let i = 0; i < 5 * n; i++) mapRequest(b.ix, b.cl, b.store, { latitude: city.lat, longitude: city.lng, radius, nowSec: now, limit: 50 });
  }
  for (const radius of radii) {
    const q = { latitude: city.lat, longitude: city.lng, radius, nowSec: now, limit: 50 };
    const us: Record<"old" | "new", number[]> = { old: [], new: [] };
    for (let r = 0; r < rounds; r++) {
      for (const k of (r % 2 === 0 ? ["old", "new"] : ["new", "old"]) as ("old" | "new")[]) {
        const b = builds[k];
        for (let i = 0; i < 20; i++) mapRequest(b.ix, b.cl, b.store, q);
        const c0 = process.cpuUsage();
        for (let i = 0; i < n; i++) mapRequest(b.ix, b.cl, b.store, q);
        const c = process.cpuUsage(c0);
        us[k].push((c.user + c.system) / n);
      }
    }
    const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const found = newIndex.near(builds.new.store, q);
    console.log(
      `${radius} m, ${city.name} (${found.positions.reduce((s, p) => s + p.count, 0)} missions, ${found.positions.length} positions, ${found.visited} read): ` +
        `old ${us.old.map((x) => x.toFixed(0)).join(" ")} µs (median ${med(us.old).toFixed(0)}); new ${us.new.map((x) => x.toFixed(0)).join(" ")} µs (median ${med(us.new).toFixed(0)}); new/old ${(med(us.new) / med(us.old)).toFixed(3)}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
