// The map's spatial index over the store's slots: grid squares of GRID_DEG, and in each square its
// groups, the missions shown (to non-parties) at one neighbourhood point, with a box around their exact
// points (ECEF, widened on every write) and a lower bound of their expiries. A group whose box is
// wholly inside a circle and whose missions are all unexpired counts whole for that point without
// reading its missions; one wholly outside is skipped; only the groups the circle's edge crosses are
// read mission by mission (nearest.ts).
//
// In typed arrays, one entry per group (a group's missions are a list through per-slot next/prev): as
// objects with an array each, the 113k groups of the 1M-mission index were ~340k objects that every
// full garbage collection marked (about 70 ms of it on this machine).
import type { SlotStrings } from "../slot-strings.ts";
import { EARTH_RADIUS_M } from "../geo.ts";

/** The map's grid squares (degrees): a 5-km circle meets about 50, a 500-m one 1 to 4. */
const GRID_DEG = 0.02;
/** A grid square's key: ≥ 1 for any latitude and longitude (0 means none). */
const gridKey = (i: number, j: number) => (i + 5000) * 20000 + (j + 10000);

export class GroupTable {
  n = 0;
  key = new Int32Array(0);
  /** Neighbourhood point id (-1: none, shown to parties only). */
  pos = new Int32Array(0);
  /** Missions in the group, and the first of its list (-1: none). */
  count = new Int32Array(0);
  head = new Int32Array(0);
  /** The next group of the same grid square (-1: none). */
  nextInSquare = new Int32Array(0);
  /** x0 x1 y0 y1 z0 z1 per group. */
  box = new Float64Array(0);
  /** ≤ every mission's expiry (exact after a full read of the group). */
  minExp = new Float64Array(0);
  /**
   * Where the group's expiries, ascending, start in `pool` (-1: not built, or a write changed the
   * group since): built when a query first needs them; the pool is emptied when full.
   */
  sorted = new Int32Array(0);
  private pool = new Float64Array(0);
  private used = 0;
  /**
   * Where the group's slots in id order start in `idPool` (-1: not built, or its members changed
   * since): built when a map query's nearest end inside the group's point, so that it reads the
   * point's smallest ids instead of offering each of its missions (thousands in a dense downtown cell).
   */
  byId = new Int32Array(0);
  idPool = new Int32Array(0);
  private idUsed = 0;
  /**
   * Where the group's missions start in `packed` (-1: not built, or a write changed the group since):
   * each mission's exact point (x, y, z) and expiry side by side, its slot in `packedSlot`, in the
   * list's order. Built when a map query first reads the group mission by mission (a circle's edge
   * crosses it): a group's slots are scattered over the store (laid out for the ranking), so its list
   * costs a cache miss per array per mission, where its packed copy is read in one sweep.
   */
  packAt = new Int32Array(0);
  packed = new Float64Array(0);
  packedSlot = new Int32Array(0);
  private packUsed = 0;
  /** Each grid square's first group (the others chain by nextInSquare). */
  private squares = new Map<number, number>();
  /** Per slot of the store: its group + 1 (0: none), and its neighbours in the group's list (-1: none). */
  slotGroup = new Int32Array(0);
  next = new Int32Array(0);
  prev = new Int32Array(0);

  /** Room for `cap` slots (the store's capacity). */
  growSlots(cap: number): void {
    const i32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.slotGroup = i32(this.slotGroup); this.next = i32(this.next); this.prev = i32(this.prev);
  }

  /**
   * Moves slot i to the group of its exact point's grid square and its neighbourhood point `pos`
   * (none without a point: lat NaN), widening the group's box by (x, y, z) and its expiry bound by e.
   */
  place(i: number, lat: number, lng: number, pos: number, x: number, y: number, z: number, e: number): void {
    const old = this.slotGroup[i]! - 1;
    let g = -1;
    if (lat === lat) {
      const key = gridKey(Math.floor(lat / GRID_DEG), Math.floor(lng / GRID_DEG));
      g = old >= 0 && this.key[old] === key && this.pos[old] === pos ? old : this.groupFor(key, pos);
    }
    if (old !== g) {
      if (old >= 0) this.unlink(i, old);
      if (g >= 0) {
        // At the head of the group's list.
        const h = this.head[g]!;
        this.next[i] = h;
        this.prev[i] = -1;
        if (h >= 0) this.prev[h] = i;
        this.head[g] = i;
        this.count[g]!++;
        this.byId[g] = -1;
      }
      this.slotGroup[i] = g + 1;
    }
    if (g < 0) return;
    this.sorted[g] = -1;
    this.packAt[g] = -1;
    const box = this.box, b = 6 * g;
    if (x < box[b]!) box[b] = x;
    if (x > box[b + 1]!) box[b + 1] = x;
    if (y < box[b + 2]!) box[b + 2] = y;
    if (y > box[b + 3]!) box[b + 3] = y;
    if (z < box[b + 4]!) box[b + 4] = z;
    if (z > box[b + 5]!) box[b + 5] = z;
    if (e < this.minExp[g]!) this.minExp[g] = e;
  }

  /** Takes slot i out of its group, if it is in one. */
  remove(i: number): void {
    const g = this.slotGroup[i]! - 1;
    if (g < 0) return;
    this.unlink(i, g);
    this.slotGroup[i] = 0;
  }

  private unlink(i: number, g: number) {
    this.sorted[g] = -1;
    this.packAt[g] = -1;
    this.byId[g] = -1;
    const p = this.prev[i]!, n = this.next[i]!;
    if (p >= 0) this.next[p] = n;
    else this.head[g] = n;
    if (n >= 0) this.prev[n] = p;
    this.count[g]!--;
  }

  /** The group of (square, neighbourhood point), created empty if new (an emptied group stays until the next layout). */
  private groupFor(key: number, pos: number): number {
    let last = -1;
    for (let g = this.squares.get(key) ?? -1; g >= 0; g = this.nextInSquare[g]!) {
      if (this.pos[g] === pos) return g;
      last = g;
    }
    const g = this.add(key, pos);
    if (last >= 0) this.nextInSquare[last] = g;
    else this.squares.set(key, g);
    return g;
  }

  /** The first group of a grid square (-1: none); the others follow by nextInSquare. */
  firstIn(square: number): number {
    return this.squares.get(square) ?? -1;
  }

  /** The grid squares a circle's bounding box meets (every square when it reaches a pole or wraps the globe). */
  squaresNear(lat: number, lng: number, radius: number): Iterable<number> {
    const ang = radius / EARTH_RADIUS_M; // radians
    const dLat = (ang * 180) / Math.PI + 1e-9;
    const cosLat = Math.cos((lat * Math.PI) / 180);
    // A spherical cap's longitude half-width: asin(sin(ang) / cos(lat)), unless it holds a pole.
    if (ang >= Math.PI / 2 || Math.sin(ang) >= cosLat) return this.squares.keys();
    const dLng = (Math.asin(Math.sin(ang) / cosLat) * 180) / Math.PI + 1e-9;
    const i0 = Math.floor((lat - dLat) / GRID_DEG), i1 = Math.floor((lat + dLat) / GRID_DEG);
    const j0 = Math.floor((lng - dLng) / GRID_DEG), j1 = Math.floor((lng + dLng) / GRID_DEG);
    const perTurn = Math.round(360 / GRID_DEG);
    if (j1 - j0 + 1 >= perTurn) return this.squares.keys();
    const keys: number[] = [];
    for (let i = i0; i <= i1; i++) {
      for (let j = j0; j <= j1; j++) {
        // Across the antimeridian: the square's index on the other side.
        const jj = ((((j + perTurn / 2) % perTurn) + perTurn) % perTurn) - perTurn / 2;
        keys.push(gridKey(i, jj));
      }
    }
    return keys;
  }

  private add(key: number, pos: number): number {
    if (this.n === this.key.length) this.grow();
    const g = this.n++;
    this.key[g] = key;
    this.pos[g] = pos;
    this.count[g] = 0;
    this.head[g] = -1;
    this.nextInSquare[g] = -1;
    this.box.set([Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity], 6 * g);
    this.minExp[g] = Infinity;
    this.sorted[g] = -1;
    this.byId[g] = -1;
    this.packAt[g] = -1;
    return g;
  }

  /** Where group g's slots, ascending by id, start in `idPool` (built on first use after a change). */
  idOrder(g: number, ids: SlotStrings, missions: number): number {
    const n = this.count[g]!;
    let o = this.byId[g]!;
    if (o >= 0) return o;
    if (this.idUsed + n > this.idPool.length) {
      if (this.idPool.length < 2 * missions || n * 4 > this.idPool.length) {
        const pool = new Int32Array(Math.max(1 << 16, n * 8, this.idPool.length * 2));
        pool.set(this.idPool.subarray(0, this.idUsed));
        this.idPool = pool;
      } else {
        this.byId.fill(-1);
        this.idUsed = 0;
      }
    }
    const slots: number[] = [];
    for (let i = this.head[g]!; i >= 0; i = this.next[i]!) slots.push(i);
    slots.sort((a, b) => ids.compare(a, b));
    o = this.idUsed;
    this.idPool.set(slots, o);
    this.idUsed += n;
    this.byId[g] = o;
    return o;
  }

  /**
   * Where group g's packed missions start (see `packAt`), built on first use after a change. The pool
   * grows to the store's size (`missions`), then is emptied and refilled when full: ~36 bytes a
   * mission at most, outside the garbage collector's heap.
   */
  pack(g: number, ex: Float64Array, ey: Float64Array, ez: Float64Array, exp: Float64Array, missions: number): number {
    let o = this.packAt[g]!;
    if (o >= 0) return o;
    const n = this.count[g]!;
    if (this.packUsed + n > this.packedSlot.length) {
      if (this.packedSlot.length < missions || n * 4 > this.packedSlot.length) {
        const cap = Math.max(1 << 10, n * 8, Math.min(this.packedSlot.length * 2, missions + n));
        const slots = new Int32Array(cap);
        slots.set(this.packedSlot.subarray(0, this.packUsed));
        const packed = new Float64Array(4 * cap);
        packed.set(this.packed.subarray(0, 4 * this.packUsed));
        this.packedSlot = slots;
        this.packed = packed;
      } else {
        this.packAt.fill(-1);
        this.packUsed = 0;
      }
    }
    o = this.packUsed;
    const p = this.packed, ps = this.packedSlot;
    let k = o;
    for (let i = this.head[g]!; i >= 0; i = this.next[i]!, k++) {
      ps[k] = i;
      const b = 4 * k;
      p[b] = ex[i]!;
      p[b + 1] = ey[i]!;
      p[b + 2] = ez[i]!;
      p[b + 3] = exp[i]!;
    }
    this.packUsed += n;
    this.packAt[g] = o;
    return o;
  }

  /**
   * How many of group g's missions are not after `now` (expired at `now`): binary search over its
   * sorted expiries. `missions`: the store's size, to which the pool grows (twice it, so that rebuilt
   * lists do not empty it at once) before it is emptied and refilled.
   */
  expiredAt(g: number, now: number, exp: Float64Array, missions: number): number {
    const n = this.count[g]!;
    let o = this.sorted[g]!;
    if (o < 0) {
      if (this.used + n > this.pool.length) {
        if (this.pool.length < 2 * missions || n * 4 > this.pool.length) {
          const pool = new Float64Array(Math.max(1 << 16, n * 8, this.pool.length * 2));
          pool.set(this.pool.subarray(0, this.used));
          this.pool = pool;
        } else {
          this.sorted.fill(-1);
          this.used = 0;
        }
      }
      o = this.used;
      let k = o;
      for (let i = this.head[g]!; i >= 0; i = this.next[i]!) this.pool[k++] = exp[i]!;
      this.pool.subarray(o, o + n).sort();
      this.used += n;
      this.sorted[g] = o;
    }
    const s = this.pool;
    let lo = o, hi = o + n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! > now) hi = mid;
      else lo = mid + 1;
    }
    return lo - o;
  }

  private grow(): void {
    const cap = Math.max(1024, this.key.length * 2);
    const i32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.key = i32(this.key); this.pos = i32(this.pos); this.count = i32(this.count); this.head = i32(this.head);
    this.nextInSquare = i32(this.nextInSquare); this.sorted = i32(this.sorted); this.byId = i32(this.byId); this.packAt = i32(this.packAt);
    const box = new Float64Array(6 * cap); box.set(this.box); this.box = box;
    const m = new Float64Array(cap); m.set(this.minExp); this.minExp = m;
  }
}
