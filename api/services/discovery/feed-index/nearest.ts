// The map from the feed index: every position within a radius with its count, and the nearest missions
// as the map lists them (the exact answer of the SQL path, api/repositories/discovery-map.repository.ts).
import { chord, distanceMeters, ecef } from "../geo.ts";
import { NearHeap } from "./heaps.ts";
import type { FeedStore } from "./store.ts";

/** The map's question. */
export interface NearQuery {
  latitude: number;
  longitude: number;
  /** Meters, exact great-circle radius. */
  radius: number;
  nowSec: number;
  limit: number;
  category?: string;
  guildId?: string;
  /** Lowercased or not: the viewer's address, if signed in (their own missions are shown exactly). */
  viewer?: string;
}

export interface NearResult {
  positions: { latitude: number; longitude: number; count: number }[];
  /** Mission ids, nearest first. */
  nearest: string[];
  /** Their slots in the store, in the same order (FeedStore.mapRowsAt). */
  slots: number[];
  /** Missions read (diagnostics). */
  visited: number;
}

/** Per store, reused between calls: missions per neighbourhood point (zero between calls), marks, hits. */
interface Scratch {
  posCount: Int32Array;
  posDist: Float64Array;
  posMark: Uint8Array;
  bulkMark: Uint8Array;
  hits: Int32Array;
}
const scratches = new WeakMap<FeedStore, Scratch>();

function scratchOf(s: FeedStore): Scratch {
  let x = scratches.get(s);
  if (!x) {
    x = { posCount: new Int32Array(0), posDist: new Float64Array(0), posMark: new Uint8Array(0), bulkMark: new Uint8Array(0), hits: new Int32Array(1024) };
    scratches.set(s, x);
  }
  if (x.posCount.length < s.posLat.length) {
    const n = Math.max(1024, s.posLat.length * 2);
    const a = new Int32Array(n);
    a.set(x.posCount);
    x.posCount = a;
    x.posDist = new Float64Array(n);
    x.posMark = new Uint8Array(n);
  }
  if (x.bulkMark.length < s.gt.n) x.bulkMark = new Uint8Array(Math.max(1024, s.gt.n * 2));
  return x;
}

/**
 * The map over the open, unexpired missions whose exact point is within `radius` meters (the chord
 * test of the SQL path) and that match the filters: every position as `viewer` is shown it (their
 * own missions at the exact point, the rest at their neighbourhood centre) with its count, and the
 * `limit` nearest by shown distance (rounded to 0.1 m, then id), as the map lists them. Reads only the
 * grid squares the circle's bounding box meets; the neighbourhood points are counted in a reused array
 * and ranked once each (their missions share one shown distance), and only the missions of the nearest
 * points are compared by id.
 */
export function near(s: FeedStore, q: NearQuery): NearResult {
  const catFilter = q.category === undefined ? -1 : (s.cats.find(q.category.toLowerCase()) ?? -2);
  const guildFilter = q.guildId === undefined ? -1 : (s.guilds.find(q.guildId) ?? -2);
  if (catFilter === -2 || guildFilter === -2) return { positions: [], nearest: [], slots: [], visited: 0 };
  const viewer = q.viewer === undefined ? -2 : (s.addrs.find(q.viewer.toLowerCase()) ?? -2);
  const [cx, cy, cz] = ecef(q.latitude, q.longitude);
  const c = chord(q.radius);
  const c2 = c * c;
  const now = q.nowSec;
  const scratch = scratchOf(s);
  const count = scratch.posCount;
  const bulkMark = scratch.bulkMark;
  const touched: number[] = [];
  const bulk: number[] = [];
  const own: { slot: number; d: number }[] = [];
  const exact = new Map<string, { latitude: number; longitude: number; count: number }>();
  const { exp, ex, ey, ez, cat, guild, poster, performer, pos, gt } = s;
  const { box, count: gCount, head, minExp, pos: gPos, nextInSquare, next: gNext } = gt;
  const filtered = catFilter >= 0 || guildFilter >= 0;
  let hits = scratch.hits;
  let nHits = 0;
  let visited = 0;
  for (const key of gt.squaresNear(q.latitude, q.longitude, q.radius)) {
    for (let g = gt.firstIn(key); g >= 0; g = nextInSquare[g]!) {
      const n = gCount[g]!;
      if (n === 0) continue;
      // The box's nearest and farthest points from the centre (rounding is monotonic, so a box wholly
      // inside or outside by these sums is so by each mission's own sum below).
      const b = 6 * g;
      const x0 = box[b]!, x1 = box[b + 1]!, y0 = box[b + 2]!, y1 = box[b + 3]!, z0 = box[b + 4]!, z1 = box[b + 5]!;
      const nx = cx < x0 ? x0 - cx : cx > x1 ? cx - x1 : 0;
      const ny = cy < y0 ? y0 - cy : cy > y1 ? cy - y1 : 0;
      const nz = cz < z0 ? z0 - cz : cz > z1 ? cz - z1 : 0;
      if (nx * nx + ny * ny + nz * nz > c2) continue;
      const fx = Math.max(cx - x0, x1 - cx), fy = Math.max(cy - y0, y1 - cy), fz = Math.max(cz - z0, z1 - cz);
      const inside = fx * fx + fy * fy + fz * fz <= c2;
      const gp = gPos[g]!;
      if (inside && !filtered && gp >= 0) {
        // Every unexpired mission counts at the point (the viewer's own are taken out below); the
        // expired ones by binary search over the group's sorted expiries.
        const live = minExp[g]! > now ? n : n - gt.expiredAt(g, now, exp, s.size);
        if (live === 0) continue;
        if (count[gp] === 0) touched.push(gp);
        count[gp]! += live;
        bulk.push(g);
        bulkMark[g] = 1;
        continue;
      }
      visited += n;
      let lo = Infinity;
      // The group's packed copy: point and expiry side by side, in one sweep (group-table.ts).
      const o = gt.pack(g, ex, ey, ez, exp, s.size);
      const packed = gt.packed, packedSlot = gt.packedSlot;
      for (let k = o, end = o + n; k < end; k++) {
        const b = 4 * k;
        const e = packed[b + 3]!;
        if (e < lo) lo = e;
        if (!(e > now)) continue; // expired
        if (!inside) {
          const dx = packed[b]! - cx, dy = packed[b + 1]! - cy, dz = packed[b + 2]! - cz;
          if (dx * dx + dy * dy + dz * dz > c2) continue;
        }
        const i = packedSlot[k]!;
        if (catFilter >= 0 && cat[i] !== catFilter) continue;
        if (guildFilter >= 0 && guild[i] !== guildFilter) continue;
        if (viewer >= 0 && (poster[i] === viewer || performer[i] === viewer)) continue; // below
        const p = gp;
        if (p < 0) continue;
        if (count[p]++ === 0) touched.push(p);
        if (nHits === hits.length) {
          const h = new Int32Array(hits.length * 2);
          h.set(hits);
          scratch.hits = hits = h;
        }
        hits[nHits++] = i;
      }
      minExp[g] = lo;
    }
  }
  // The viewer's own missions, at their exact points (out of their point's count where a group counted whole).
  if (viewer >= 0) {
    for (let l = s.owners.first(viewer); l >= 0; l = s.owners.after(l)) {
      const i = s.owners.slotOf(l);
      if (!(exp[i]! > now)) continue;
      const dx = ex[i]! - cx, dy = ey[i]! - cy, dz = ez[i]! - cz;
      if (!(dx * dx + dy * dy + dz * dz <= c2)) continue; // outside, or no point
      if (catFilter >= 0 && cat[i] !== catFilter) continue;
      if (guildFilter >= 0 && guild[i] !== guildFilter) continue;
      visited++;
      const g = gt.slotGroup[i]! - 1;
      if (g >= 0 && bulkMark[g]) count[pos[i]!]!--;
      const la = s.lat[i]!, lng = s.lng[i]!;
      const k = `${la},${lng}`;
      const e = exact.get(k);
      if (e) e.count++;
      else exact.set(k, { latitude: la, longitude: lng, count: 1 });
      own.push({ slot: i, d: Math.round(distanceMeters(q.latitude, q.longitude, la, lng) * 10) / 10 });
    }
  }
  // Neighbourhood points nearest first. Points wholly before the limit give all their missions; the
  // points at the distance where the limit falls give their smallest ids (a heap); farther ones none.
  const dist = scratch.posDist;
  const shown = touched.filter((p) => count[p]! > 0);
  for (const p of shown) dist[p] = Math.round(distanceMeters(q.latitude, q.longitude, s.posLat[p]!, s.posLng[p]!) * 10) / 10;
  // Comparators answer -1/0/1 (small integers): a difference of doubles is a heap number per comparison.
  const byDist = shown.sort((a, b) => (dist[a]! < dist[b]! ? -1 : dist[a]! > dist[b]! ? 1 : 0));
  const limit = Math.max(0, Math.floor(q.limit));
  const mark = scratch.posMark; // 1: every mission of the point is in; 2: the point of the last distance
  let held = 0;
  let cut = Infinity;
  for (const p of byDist) {
    if (dist[p]! > cut) break;
    if (held >= limit) cut = Math.min(cut, dist[p]!);
    if (cut === Infinity && held + count[p]! <= limit) mark[p] = 1;
    else {
      if (cut === Infinity) cut = dist[p]!;
      mark[p] = 2;
    }
    held += count[p]!;
  }
  const ids = s.ids;
  const tail = new NearHeap(limit, ids);
  const picked: { slot: number; d: number }[] = [...own];
  const take = (i: number, p: number) => {
    const m = mark[p]!;
    if (m === 1) picked.push({ slot: i, d: dist[p]! });
    else if (m === 2) tail.offer(dist[p]!, i);
  };
  for (let k = 0; k < nHits; k++) take(hits[k]!, pos[hits[k]!]!);
  for (const g of bulk) {
    bulkMark[g] = 0;
    const gp = gPos[g]!;
    const m = mark[gp]!;
    if (!m) continue;
    if (m === 2) {
      // The point where the limit falls: its missions are equally far, so only the group's `limit`
      // smallest ids that count can be among the nearest; read them in id order and stop.
      const o = gt.idOrder(g, ids, s.size);
      const order = gt.idPool;
      let offered = 0;
      for (let k = o, end = o + gCount[g]!; k < end && offered < limit; k++) {
        const i = order[k]!;
        visited++;
        if (exp[i]! > now && !(viewer >= 0 && (poster[i] === viewer || performer[i] === viewer))) {
          tail.offer(dist[gp]!, i);
          offered++;
        }
      }
      continue;
    }
    visited += gCount[g]!;
    for (let i = head[g]!; i >= 0; i = gNext[i]!) if (exp[i]! > now && !(viewer >= 0 && (poster[i] === viewer || performer[i] === viewer))) take(i, gp);
  }
  for (const i of tail.sorted()) picked.push({ slot: i, d: dist[pos[i]!]! });
  picked.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : ids.compare(a.slot, b.slot)));
  for (const p of byDist) mark[p] = 0;
  const positions = [...exact.values()];
  for (const p of touched) {
    const n = count[p]!;
    count[p] = 0;
    if (n === 0) continue;
    // An own mission exactly at a neighbourhood centre: one position (names read only when the viewer has any).
    const e = exact.size > 0 ? exact.get(s.posIds.name(p)!) : undefined;
    if (e) e.count += n;
    else positions.push({ latitude: s.posLat[p]!, longitude: s.posLng[p]!, count: n });
  }
  const slots = picked.slice(0, limit).map((x) => x.slot);
  return { positions, nearest: slots.map((i) => ids.get(i)!), slots, visited };
}
