// The feed by relevance, ranked in memory over every open mission (an index per API copy, following
// the discovery read model's changes). Why: a reader's score of a mission mixes the mission's static
// part with three reader-dependent terms (distance, xp match, category preference) and the guild
// boost, so no SQL index orders missions for a reader; at 1M missions the SQL plans either scored every
// open mission (5-7 s) or, pruned by a bound, still thousands per page and tens of thousands for page
// 50 (docs/decisions.md "Feed index in memory"). Here one pass over packed arrays scores every
// matching mission with the exact formula of feed-scoring.ts, cheaply bounded first (the distance term,
// the only costly one, is computed only where the bound could still enter the page), and keeps the
// best skip + take in a heap: page 50 costs what page 1 costs, and `total` is counted in the same pass.
//
// Consistency: the index holds the read model as of a cursor on its change sequence (handed out in
// commit order under the read model's write lock). Every ranking first reads the changes after the
// cursor (one indexed statement; nothing when idle), so a write whose response waited for its read-
// model row is in the next feed on every API copy (read-your-writes), and a rebuild's marker reloads
// the whole index. The first ranking loads it (a snapshot read in batches).
import type { FeedIndexChanges, FeedIndexRow, ShownRow } from "../../repositories/discovery-feed-source.repository.ts";
import type { RankedRow } from "../../repositories/discovery-feed.repository.ts";
import type { CandidateRow } from "../../repositories/discovery.repository.ts";
import { eligibility, type EligibilityMission, type EligibilityUser } from "../../../domain/index.ts";
import { distanceScore, posterReputationScore, rewardScore, WEIGHTS } from "./feed-scoring.ts";
import { chord, distanceMeters, EARTH_RADIUS_M, ecef } from "./geo.ts";
import { SlotStrings, SlotText } from "./slot-strings.ts";
import { OwnerLists } from "./owner-lists.ts";

export interface FeedIndexSource {
  snapshot(onRows: (rows: FeedIndexRow[]) => void): Promise<bigint>;
  changesAfter(cursor: bigint): Promise<FeedIndexChanges>;
  rows(ids: string[]): Promise<ShownRow[]>;
  rowsAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; rows: ShownRow[] }>;
  guildNames(ids: string[]): Promise<Map<string, string>>;
  guildNamesAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; names: Map<string, string> }>;
}

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

/**
 * A mission as a map marker shows it, from the index (CandidateRow's names): the page of the map needs
 * no read of the rows, only the guild names (title and category are "" when the mission has none).
 */
export type MapRow = Pick<CandidateRow, "id" | "poster" | "performer" | "guild_uuid" | "reward" | "expires_at" | "title" | "category" | "min_guild_xp" | "min_reputation" | "premium">
  & { latitude: number; longitude: number };

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
const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Strings to small integers (categories, guilds, addresses); ids are never reused. */
class Interner {
  private strings = new SlotStrings();
  id(s: string): number {
    let i = this.strings.find(s);
    if (i < 0) this.strings.set((i = this.strings.size), s);
    return i;
  }
  find(s: string): number | undefined {
    const i = this.strings.find(s);
    return i < 0 ? undefined : i;
  }
  name(i: number): string | undefined {
    return this.strings.get(i);
  }
  get size(): number {
    return this.strings.size;
  }
}

/** Slots per block: the unit the ranking skips with one bound (tests use smaller blocks). */
const BLOCK = 256;
/** Latitude buckets of the layout (degrees): a reader's 50-km band meets two or three. */
const LAT_BUCKET = 0.5;

/**
 * The open missions in packed arrays, one slot each, laid out in blocks of BLOCK slots: missions
 * outside guilds first, then by guild; within that by latitude bucket, then by their static part plus
 * urgency at layout time, best first. Each block keeps bounds of what it holds (static keys, latitude
 * range, categories, guild), widened on every write, so a ranking passes over whole blocks that cannot
 * reach its page. A removal leaves a dead slot; a new mission goes to the tail; the layout is redone
 * when dead and tail slots pass a quarter of the store (compact()).
 */
export class FeedStore {
  /** Slots in use (live, dead and tail). */
  size = 0;
  private live = 0;
  private removedSince = 0;
  /** Slots laid out by the last compaction; later slots are the tail. */
  private laid = 0;
  private cap = 0;
  /** Each slot's mission id, and the slot of an id (dead slots hold none). */
  private ids = new SlotStrings();
  /** What the map shows of each mission: reward, title and category, NUL-separated. */
  private text = new SlotText();
  private rs = new Float64Array(0); // reward score
  private ps = new Float64Array(0); // poster reputation score
  private exp = new Float64Array(0); // expires_at (s); -Infinity: dead slot
  private lat = new Float64Array(0); // exact point (NaN: none)
  private lng = new Float64Array(0);
  private plat = new Float64Array(0); // the neighbourhood centre shown to non-parties
  private plng = new Float64Array(0);
  private minXp = new Float64Array(0); // NaN: no minimum
  private minRep = new Float64Array(0); // the mission's minReputation; NaN: none
  private prem = new Uint8Array(0); // a premium mission
  private cat = new Int32Array(0); // category id; 0: none
  private guild = new Int32Array(0); // guild id; -1: none
  private poster = new Int32Array(0);
  private performer = new Int32Array(0); // -1: none
  // The map's side: the exact point on the sphere (ECEF, meters; NaN: none), the radius test of the SQL
  // (cube_distance of api.geo_ecef), and the id of the shown neighbourhood point (-1: none).
  private ex = new Float64Array(0);
  private ey = new Float64Array(0);
  private ez = new Float64Array(0);
  private pos = new Int32Array(0);
  private posIds = new Interner();
  private posLat: number[] = [];
  private posLng: number[] = [];
  // The map's spatial index: per grid square (GRID_DEG) of the exact points, its groups (missions shown at
  // one neighbourhood point, see GroupTable); each slot's group + 1 (0: none) and its neighbours in the
  // group's list (-1: none); each address's slots (poster or performer), for the missions a viewer is
  // shown exactly.
  private grid = new Map<number, number>(); // square key -> its first group (the others chain by gt.nextInSquare)
  private gt = new GroupTable();
  private gs = new Int32Array(0);
  private gNext = new Int32Array(0);
  private gPrev = new Int32Array(0);
  private owners = new OwnerLists(); // each address's slots (the map shows a viewer theirs exactly)
  private bulkMark = new Uint8Array(0);
  // near()'s scratch, reused: missions per neighbourhood point (zero between calls), hits of a query.
  private posCount = new Int32Array(0);
  private posDist = new Float64Array(0);
  private posMark = new Uint8Array(0);
  private hits = new Int32Array(1024);
  // Block bounds: k1 = WEIGHTS.reward·R + WEIGHTS.posterReputation·P (no urgency), k2 = k1 −
  // WEIGHTS.urgency·expires/604800 (so k1 + urgency term ≤ max(k1, k2 + WEIGHTS.urgency·(1 + now/604800))).
  private bk1 = new Float64Array(0);
  private bk2 = new Float64Array(0);
  private blo = new Float64Array(0); // min shown latitude (NaN-free: +Infinity when none)
  private bhi = new Float64Array(0);
  private bnoPoint = new Uint8Array(0); // a mission without a point
  private bcats = new Int32Array(0); // category bit mask (bit min(id, 31))
  private bguild = new Int32Array(0); // the block's one guild id, -1 none, -2 several (or mixed)
  private bempty = new Uint8Array(0); // no mission written since the layout
  private cats = new Interner();
  private guilds = new Interner();
  private addrs = new Interner();

  private readonly B: number;

  constructor(opts: { block?: number } = {}) {
    this.B = opts.block ?? BLOCK;
    this.cats.id("\u0000none"); // id 0: no category (never equal to a lowercased category)
  }

  private grow(min: number) {
    const cap = Math.max(4 * this.B, this.cap * 2, Math.ceil(min / this.B) * this.B);
    const f64 = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
    const i32 = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
    this.rs = f64(this.rs); this.ps = f64(this.ps); this.exp = f64(this.exp); this.lat = f64(this.lat); this.lng = f64(this.lng);
    this.plat = f64(this.plat); this.plng = f64(this.plng); this.minXp = f64(this.minXp); this.minRep = f64(this.minRep);
    const pr = new Uint8Array(cap); pr.set(this.prem); this.prem = pr;
    this.ex = f64(this.ex); this.ey = f64(this.ey); this.ez = f64(this.ez);
    this.cat = i32(this.cat); this.guild = i32(this.guild); this.poster = i32(this.poster); this.performer = i32(this.performer);
    this.pos = i32(this.pos); this.gs = i32(this.gs); this.gNext = i32(this.gNext); this.gPrev = i32(this.gPrev);
    const blocks = cap / this.B;
    const old = this.cap / this.B;
    const bf = (a: Float64Array, fill: number) => { const b = new Float64Array(blocks).fill(fill); b.set(a); return b; };
    this.bk1 = bf(this.bk1, -Infinity); this.bk2 = bf(this.bk2, -Infinity); this.blo = bf(this.blo, Infinity); this.bhi = bf(this.bhi, -Infinity);
    const nb = new Uint8Array(blocks); nb.set(this.bnoPoint); this.bnoPoint = nb;
    const bc = new Int32Array(blocks); bc.set(this.bcats); this.bcats = bc;
    const bg = new Int32Array(blocks).fill(-1); bg.set(this.bguild); this.bguild = bg;
    const be = new Uint8Array(blocks).fill(1); be.set(this.bempty); this.bempty = be;
    for (let k = old; k < blocks; k++) this.bempty[k] = 1;
    this.cap = cap;
  }

  /** Adds, replaces or (when no longer Open) removes the mission. */
  upsert(r: FeedIndexRow): void {
    if (r.state !== "Open") return this.remove(r.id);
    let i = this.ids.find(r.id);
    if (i < 0) {
      if (this.size === this.cap) this.grow(this.size + 1);
      i = this.size++;
      this.ids.set(i, r.id);
      this.live++;
    } else this.disown(i);
    this.write(i, r);
    this.owned(i);
  }

  /** Adds slot i to its poster's and performer's lists. */
  private owned(i: number) {
    const p = this.poster[i]!, f = this.performer[i]!;
    this.owners.add(i, 0, p);
    if (f >= 0 && f !== p) this.owners.add(i, 1, f);
  }

  private disown(i: number) {
    const p = this.poster[i]!, f = this.performer[i]!;
    this.owners.remove(i, 0, p);
    if (f >= 0 && f !== p) this.owners.remove(i, 1, f);
  }

  private write(i: number, r: FeedIndexRow) {
    const point = r.latitude !== null && r.longitude !== null;
    this.rs[i] = rewardScore(BigInt(r.reward));
    this.ps[i] = posterReputationScore(r.ratingSum, r.ratingCount);
    this.exp[i] = r.expiresAt;
    this.lat[i] = point ? r.latitude! : NaN;
    this.lng[i] = point ? r.longitude! : NaN;
    this.plat[i] = point && r.pubLatitude !== null ? r.pubLatitude : NaN;
    this.plng[i] = point && r.pubLongitude !== null ? r.pubLongitude : NaN;
    this.minXp[i] = r.minGuildXp === null ? NaN : r.minGuildXp;
    this.minRep[i] = r.minReputation === null ? NaN : r.minReputation;
    this.prem[i] = r.premium ? 1 : 0;
    this.cat[i] = r.category === null ? 0 : this.cats.id(r.category);
    this.guild[i] = r.guildId === null ? -1 : this.guilds.id(r.guildId);
    this.poster[i] = this.addrs.id(r.poster.toLowerCase());
    this.performer[i] = r.performer === null ? -1 : this.addrs.id(r.performer.toLowerCase());
    this.text.set(i, `${r.reward}\u0000${r.title ?? ""}\u0000${r.categoryText ?? ""}`);
    const [x, y, z] = point ? ecef(r.latitude!, r.longitude!) : [NaN, NaN, NaN];
    this.ex[i] = x; this.ey[i] = y; this.ez[i] = z;
    this.pos[i] = this.plat[i] === this.plat[i] ? this.positionId(this.plat[i]!, this.plng[i]!) : -1;
    this.place(i);
    this.widen(i);
  }

  private positionId(lat: number, lng: number): number {
    const id = this.posIds.id(`${lat},${lng}`);
    if (id === this.posLat.length) {
      this.posLat.push(lat);
      this.posLng.push(lng);
    }
    return id;
  }

  /** Widens slot i's block bounds to cover it (bounds never narrow until the next layout). */
  private widen(i: number) {
    const b = Math.floor(i / this.B);
    const k1 = WEIGHTS.reward * this.rs[i]! + WEIGHTS.posterReputation * this.ps[i]!;
    const k2 = k1 - (WEIGHTS.urgency * this.exp[i]!) / 604800;
    if (k1 > this.bk1[b]!) this.bk1[b] = k1;
    if (k2 > this.bk2[b]!) this.bk2[b] = k2;
    const la = this.plat[i]!;
    if (la !== la) this.bnoPoint[b] = 1;
    else {
      if (la < this.blo[b]!) this.blo[b] = la;
      if (la > this.bhi[b]!) this.bhi[b] = la;
    }
    this.bcats[b]! |= 1 << Math.min(this.cat[i]!, 31);
    const g = this.guild[i]!;
    if (this.bempty[b]) this.bguild[b] = g;
    else if (this.bguild[b] !== g) this.bguild[b] = -2;
    this.bempty[b] = 0;
  }

  remove(id: string): void {
    const i = this.ids.find(id);
    if (i < 0) return;
    this.ids.delete(i);
    this.text.delete(i);
    this.disown(i);
    const g = this.gs[i]! - 1;
    if (g >= 0) {
      this.unplace(i, g);
      this.gs[i] = 0;
    }
    this.exp[i] = -Infinity;
    this.live--;
    this.removedSince++;
  }

  has(id: string): boolean {
    return this.ids.find(id) >= 0;
  }

  /** The map's rows of these held missions with a point, in the order given (others are left out). */
  mapRows(ids: string[]): MapRow[] {
    const out: MapRow[] = [];
    for (const id of ids) {
      const i = this.ids.find(id);
      if (i < 0 || this.lat[i] !== this.lat[i]) continue;
      const [reward, title, category] = this.text.get(i)!.split("\u0000") as [string, string, string];
      const g = this.guild[i]!, f = this.performer[i]!, xp = this.minXp[i]!, rep = this.minRep[i]!;
      out.push({
        id, poster: this.addrs.name(this.poster[i]!)!, performer: f < 0 ? null : this.addrs.name(f)!,
        guild_uuid: g < 0 ? null : this.guilds.name(g)!, reward, expires_at: String(this.exp[i]!), title, category,
        latitude: this.lat[i]!, longitude: this.lng[i]!, min_guild_xp: xp === xp ? xp : null,
        min_reputation: rep === rep ? rep : null, premium: this.prem[i] === 1,
      });
    }
    return out;
  }

  /** Open missions held. */
  count(): number {
    return this.live;
  }

  /** Redoes the layout when dead and tail slots pass a quarter of the store (a few hundred ms at 700k). */
  maybeCompact(): boolean {
    const waste = this.removedSince + (this.size - this.laid);
    if (waste <= Math.max(4 * this.B, this.size / 4)) return false;
    this.compact();
    return true;
  }

  /** The layout of the class comment, from scratch. */
  compact(nowSec = Date.now() / 1000): void {
    const order: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.exp[i] !== -Infinity) order.push(i);
    const key = new Float64Array(this.size);
    const bucket = new Float64Array(this.size);
    for (const i of order) {
      const u = 1 - (this.exp[i]! - nowSec) / 604800;
      key[i] = WEIGHTS.reward * this.rs[i]! + WEIGHTS.posterReputation * this.ps[i]! + WEIGHTS.urgency * (u < 0 ? 0 : u > 1 ? 1 : u);
      const la = this.plat[i]!;
      bucket[i] = la === la ? Math.floor(la / LAT_BUCKET) : 1e9;
    }
    order.sort((a, b) => this.guild[a]! - this.guild[b]! || bucket[a]! - bucket[b]! || key[b]! - key[a]!);
    const old = {
      ids: this.ids, text: this.text, rs: this.rs, ps: this.ps, exp: this.exp, lat: this.lat, lng: this.lng, plat: this.plat, plng: this.plng, minXp: this.minXp, minRep: this.minRep, prem: this.prem,
      cat: this.cat, guild: this.guild, poster: this.poster, performer: this.performer, ex: this.ex, ey: this.ey, ez: this.ez, pos: this.pos,
    };
    this.cap = 0;
    this.size = 0;
    this.ids = new SlotStrings();
    this.text = new SlotText();
    for (const k of ["rs", "ps", "exp", "lat", "lng", "plat", "plng", "minXp", "minRep", "ex", "ey", "ez", "bk1", "bk2", "blo", "bhi"] as const) this[k] = new Float64Array(0);
    for (const k of ["cat", "guild", "poster", "performer", "pos", "gs", "gNext", "gPrev", "bcats", "bguild"] as const) this[k] = new Int32Array(0);
    this.grid.clear();
    this.gt = new GroupTable();
    this.owners.clear();
    this.bnoPoint = new Uint8Array(0);
    this.bempty = new Uint8Array(0);
    this.prem = new Uint8Array(0);
    this.grow(order.length);
    // Start a new block at each change of guild, so a block holds one guild (or none).
    let i = 0;
    let prevGuild = -1;
    for (const o of order) {
      const g = old.guild[o]!;
      if (g !== prevGuild && i % this.B !== 0) i = Math.ceil(i / this.B) * this.B;
      prevGuild = g;
      if (i >= this.cap) this.grow(i + 1);
      this.ids.set(i, old.ids.get(o)!);
      this.text.set(i, old.text.get(o)!);
      this.rs[i] = old.rs[o]!; this.ps[i] = old.ps[o]!; this.exp[i] = old.exp[o]!; this.lat[i] = old.lat[o]!; this.lng[i] = old.lng[o]!;
      this.plat[i] = old.plat[o]!; this.plng[i] = old.plng[o]!; this.minXp[i] = old.minXp[o]!;
      this.minRep[i] = old.minRep[o]!; this.prem[i] = old.prem[o]!;
      this.cat[i] = old.cat[o]!; this.guild[i] = g; this.poster[i] = old.poster[o]!; this.performer[i] = old.performer[o]!;
      this.ex[i] = old.ex[o]!; this.ey[i] = old.ey[o]!; this.ez[i] = old.ez[o]!; this.pos[i] = old.pos[o]!;
      this.place(i);
      this.owned(i);
      this.widen(i);
      i++;
    }
    // Padding slots between guilds are dead.
    for (let j = 0; j < i; j++) if (!this.ids.has(j)) { this.exp[j] = -Infinity; this.pos[j] = -1; }
    this.size = i;
    this.laid = i;
    this.removedSince = 0;
  }

  /**
   * The map over the open, unexpired missions whose exact point is within `radius` meters (the chord
   * test of the SQL path) and that match the filters: every position as `viewer` is shown it (their
   * own missions at the exact point, the rest at their neighbourhood centre) with its count, and the
   * `limit` nearest by shown distance (rounded to 0.1 m, then id), as the map lists them. Reads only the
   * grid squares (GRID_DEG) the circle's bounding box meets; the neighbourhood points are counted in a
   * reused array and ranked once each (their missions share one shown distance), and only the missions
   * of the nearest points are compared by id.
   */
  near(q: NearQuery): { positions: { latitude: number; longitude: number; count: number }[]; nearest: string[]; visited: number } {
    const catFilter = q.category === undefined ? -1 : (this.cats.find(q.category.toLowerCase()) ?? -2);
    const guildFilter = q.guildId === undefined ? -1 : (this.guilds.find(q.guildId) ?? -2);
    if (catFilter === -2 || guildFilter === -2) return { positions: [], nearest: [], visited: 0 };
    const viewer = q.viewer === undefined ? -2 : (this.addrs.find(q.viewer.toLowerCase()) ?? -2);
    const [cx, cy, cz] = ecef(q.latitude, q.longitude);
    const c = chord(q.radius);
    const c2 = c * c;
    const now = q.nowSec;
    if (this.posCount.length < this.posLat.length) {
      const n = Math.max(1024, this.posLat.length * 2);
      const a = new Int32Array(n);
      a.set(this.posCount);
      this.posCount = a;
      this.posDist = new Float64Array(n);
      this.posMark = new Uint8Array(n);
    }
    if (this.bulkMark.length < this.gt.n) this.bulkMark = new Uint8Array(Math.max(1024, this.gt.n * 2));
    const count = this.posCount;
    const bulkMark = this.bulkMark;
    const touched: number[] = [];
    const bulk: number[] = [];
    const own: { slot: number; d: number }[] = [];
    const exact = new Map<string, { latitude: number; longitude: number; count: number }>();
    const { exp, ex, ey, ez, cat, guild, poster, performer, pos, gt, gNext } = this;
    const { box, count: gCount, head, minExp, pos: gPos, nextInSquare } = gt;
    const filtered = catFilter >= 0 || guildFilter >= 0;
    let hits = this.hits;
    let nHits = 0;
    let visited = 0;
    for (const key of this.gridKeys(q.latitude, q.longitude, q.radius)) {
      for (let g = this.grid.get(key) ?? -1; g >= 0; g = nextInSquare[g]!) {
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
          const live = minExp[g]! > now ? n : n - gt.expiredAt(g, now, exp, gNext, this.size);
          if (live === 0) continue;
          if (count[gp] === 0) touched.push(gp);
          count[gp]! += live;
          bulk.push(g);
          bulkMark[g] = 1;
          continue;
        }
        visited += n;
        let lo = Infinity;
        for (let i = head[g]!; i >= 0; i = gNext[i]!) {
          const e = exp[i]!;
          if (e < lo) lo = e;
          if (!(e > now)) continue; // expired
          if (!inside) {
            const dx = ex[i]! - cx, dy = ey[i]! - cy, dz = ez[i]! - cz;
            if (dx * dx + dy * dy + dz * dz > c2) continue;
          }
          if (catFilter >= 0 && cat[i] !== catFilter) continue;
          if (guildFilter >= 0 && guild[i] !== guildFilter) continue;
          if (viewer >= 0 && (poster[i] === viewer || performer[i] === viewer)) continue; // below
          const p = gp;
          if (p < 0) continue;
          if (count[p]++ === 0) touched.push(p);
          if (nHits === hits.length) {
            const h = new Int32Array(hits.length * 2);
            h.set(hits);
            this.hits = hits = h;
          }
          hits[nHits++] = i;
        }
        minExp[g] = lo;
      }
    }
    // The viewer's own missions, at their exact points (out of their point's count where a group counted whole).
    if (viewer >= 0) {
      for (let l = this.owners.first(viewer); l >= 0; l = this.owners.after(l)) {
        const i = this.owners.slotOf(l);
        if (!(exp[i]! > now)) continue;
        const dx = ex[i]! - cx, dy = ey[i]! - cy, dz = ez[i]! - cz;
        if (!(dx * dx + dy * dy + dz * dz <= c2)) continue; // outside, or no point
        if (catFilter >= 0 && cat[i] !== catFilter) continue;
        if (guildFilter >= 0 && guild[i] !== guildFilter) continue;
        visited++;
        const g = this.gs[i]! - 1;
        if (g >= 0 && bulkMark[g]) count[pos[i]!]!--;
        const la = this.lat[i]!, lng = this.lng[i]!;
        const k = `${la},${lng}`;
        const e = exact.get(k);
        if (e) e.count++;
        else exact.set(k, { latitude: la, longitude: lng, count: 1 });
        own.push({ slot: i, d: Math.round(distanceMeters(q.latitude, q.longitude, la, lng) * 10) / 10 });
      }
    }
    // Neighbourhood points nearest first. Points wholly before the limit give all their missions; the
    // points at the distance where the limit falls give their smallest ids (a heap); farther ones none.
    const dist = this.posDist;
    const shown = touched.filter((p) => count[p]! > 0);
    for (const p of shown) dist[p] = Math.round(distanceMeters(q.latitude, q.longitude, this.posLat[p]!, this.posLng[p]!) * 10) / 10;
    // Comparators answer -1/0/1 (small integers): a difference of doubles is a heap number per comparison.
    const byDist = shown.sort((a, b) => (dist[a]! < dist[b]! ? -1 : dist[a]! > dist[b]! ? 1 : 0));
    const limit = Math.max(0, Math.floor(q.limit));
    const mark = this.posMark; // 1: every mission of the point is in; 2: the point of the last distance
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
    const tail = new NearHeap(limit, this.ids);
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
        const o = gt.idOrder(g, gNext, this.ids, this.size);
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
    const ids = this.ids;
    picked.sort((a, b) => (a.d < b.d ? -1 : a.d > b.d ? 1 : ids.compare(a.slot, b.slot)));
    for (const p of byDist) mark[p] = 0;
    const positions = [...exact.values()];
    for (const p of touched) {
      const n = count[p]!;
      count[p] = 0;
      if (n === 0) continue;
      // An own mission exactly at a neighbourhood centre: one position (names read only when the viewer has any).
      const e = exact.size > 0 ? exact.get(this.posIds.name(p)!) : undefined;
      if (e) e.count += n;
      else positions.push({ latitude: this.posLat[p]!, longitude: this.posLng[p]!, count: n });
    }
    return { positions, nearest: picked.slice(0, limit).map((x) => ids.get(x.slot)!), visited };
  }

  /** The grid squares a circle's bounding box meets (every square when it reaches a pole or wraps the globe). */
  private gridKeys(lat: number, lng: number, radius: number): Iterable<number> {
    const ang = radius / EARTH_RADIUS_M; // radians
    const dLat = (ang * 180) / Math.PI + 1e-9;
    const cosLat = Math.cos((lat * Math.PI) / 180);
    // A spherical cap's longitude half-width: asin(sin(ang) / cos(lat)), unless it holds a pole.
    if (ang >= Math.PI / 2 || Math.sin(ang) >= cosLat) return this.grid.keys();
    const dLng = (Math.asin(Math.sin(ang) / cosLat) * 180) / Math.PI + 1e-9;
    const i0 = Math.floor((lat - dLat) / GRID_DEG), i1 = Math.floor((lat + dLat) / GRID_DEG);
    const j0 = Math.floor((lng - dLng) / GRID_DEG), j1 = Math.floor((lng + dLng) / GRID_DEG);
    const perTurn = Math.round(360 / GRID_DEG);
    if (j1 - j0 + 1 >= perTurn) return this.grid.keys();
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

  /** Moves slot i to the group of its exact point's grid square and its neighbourhood point (none without a point). */
  private place(i: number) {
    const la = this.lat[i]!;
    const old = this.gs[i]! - 1;
    let g = -1;
    if (la === la) {
      const key = gridKey(Math.floor(la / GRID_DEG), Math.floor(this.lng[i]! / GRID_DEG));
      g = old >= 0 && this.gt.key[old] === key && this.gt.pos[old] === this.pos[i] ? old : this.groupFor(key, this.pos[i]!);
    }
    const gt = this.gt;
    if (old !== g) {
      if (old >= 0) this.unplace(i, old);
      if (g >= 0) {
        // At the head of the group's list.
        const h = gt.head[g]!;
        this.gNext[i] = h;
        this.gPrev[i] = -1;
        if (h >= 0) this.gPrev[h] = i;
        gt.head[g] = i;
        gt.count[g]!++;
        gt.byId[g] = -1;
      }
      this.gs[i] = g + 1;
    }
    if (g < 0) return;
    gt.sorted[g] = -1;
    const x = this.ex[i]!, y = this.ey[i]!, z = this.ez[i]!, e = this.exp[i]!;
    const box = gt.box, b = 6 * g;
    if (x < box[b]!) box[b] = x;
    if (x > box[b + 1]!) box[b + 1] = x;
    if (y < box[b + 2]!) box[b + 2] = y;
    if (y > box[b + 3]!) box[b + 3] = y;
    if (z < box[b + 4]!) box[b + 4] = z;
    if (z > box[b + 5]!) box[b + 5] = z;
    if (e < gt.minExp[g]!) gt.minExp[g] = e;
  }

  private unplace(i: number, g: number) {
    const gt = this.gt;
    gt.sorted[g] = -1;
    gt.byId[g] = -1;
    const p = this.gPrev[i]!, n = this.gNext[i]!;
    if (p >= 0) this.gNext[p] = n;
    else gt.head[g] = n;
    if (n >= 0) this.gPrev[n] = p;
    gt.count[g]!--;
  }

  /** The group of (square, neighbourhood point), created empty if new (an emptied group stays until the next layout). */
  private groupFor(key: number, pos: number): number {
    const gt = this.gt;
    let last = -1;
    for (let g = this.grid.get(key) ?? -1; g >= 0; g = gt.nextInSquare[g]!) {
      if (gt.pos[g] === pos) return g;
      last = g;
    }
    const g = gt.add(key, pos);
    if (last >= 0) gt.nextInSquare[last] = g;
    else this.grid.set(key, g);
    return g;
  }

  /**
   * The page (skip, take) of the relevance order over the open, unexpired missions matching the
   * filters: eligible first, then finalScore desc, then id. Blocks are visited best bound first and
   * the visit stops at the first block that cannot reach the worst score kept. `scored`: missions
   * whose distance had to be computed; `visited`: missions read.
   */
  rank(q: FeedIndexQuery): { rows: IndexRanked[]; scored: number; visited: number } {
    const n = Math.floor(q.skip) + Math.floor(q.take);
    const catFilter = q.category === undefined ? -1 : (this.cats.find(q.category.toLowerCase()) ?? -2);
    const guildFilter = q.guildId === undefined ? -1 : (this.guilds.find(q.guildId) ?? -2);
    if (n === 0 || catFilter === -2 || guildFilter === -2) return { rows: [], scored: 0, visited: 0 };
    // The reader's side, per category / guild id.
    const pref = new Float64Array(this.cats.size);
    for (let c = 1; c < pref.length; c++) pref[c] = q.preferences.get(this.cats.name(c)!) ?? 0;
    pref[0] = q.preferences.get("") ?? 0; // no category: the SQL reads coalesce(category, '')
    let maxPref = 0;
    for (const v of pref) if (v > maxPref) maxPref = v;
    const gxp = new Float64Array(this.guilds.size).fill(NaN);
    for (const [g, xp] of q.guilds) {
      const id = this.guilds.find(g);
      if (id !== undefined) gxp[id] = xp;
    }
    // Eligibility per mission by the one rule, on interned guild ids; one mission object, refilled.
    const reader: EligibilityUser<number> = {
      guildXp: (g) => (gxp[g] === gxp[g] ? gxp[g] : undefined), reputation: q.reputation, level: q.level,
    };
    const terms: EligibilityMission<number> = { guild: null, minGuildXp: null, minReputation: null, premium: false };
    const viewer = this.addrs.find(q.viewer.toLowerCase()) ?? -2;
    const located = q.latitude !== undefined && q.longitude !== undefined;
    const qLat = q.latitude ?? 0;
    const qLng = q.longitude ?? 0;
    const { reward: wr, urgency: wu, distance: wd, xpMatch: wx, posterReputation: wp, categoryPreference: wc } = q.weights;
    const e = q.experience;
    const now = q.nowSec;

    // Block bounds (the keys were built with WEIGHTS: other weights visit every block).
    const keyed = wr === WEIGHTS.reward && wp === WEIGHTS.posterReputation && wu === WEIGHTS.urgency && wd >= 0 && wx >= 0 && wc >= 0;
    const shift = WEIGHTS.urgency * (1 + now / 604800);
    const band = FAR_DLAT + 0.01; // the party's exact point is within its cell (< 0.006° from the shown centre)
    const blocks = Math.ceil(this.size / this.B);
    const order = new BlockQueue(blocks);
    const bound = new Float64Array(blocks);
    const onlyIneligible = new Uint8Array(blocks);
    for (let b = 0; b < blocks; b++) {
      if (this.bempty[b]) continue;
      if (catFilter >= 0 && !(this.bcats[b]! & (1 << Math.min(catFilter, 31)))) continue;
      const bg = this.bguild[b]!;
      if (guildFilter >= 0 && bg !== guildFilter && bg !== -2) continue;
      let boost = 1;
      if (bg >= 0) {
        if (gxp[bg] === gxp[bg]) boost = q.guildBoost;
        else onlyIneligible[b] = 1;
      } else if (bg === -2) boost = Math.max(1, q.guildBoost);
      let dmax = 0.5;
      if (located) {
        const near = this.blo[b]! <= qLat + band && this.bhi[b]! >= qLat - band;
        dmax = near ? 1 : this.bnoPoint[b] ? 0.5 : 0;
      }
      const st = keyed ? Math.max(this.bk1[b]!, this.bk2[b]! + shift) + 1e-9 : Infinity;
      bound[b] = (st + wd * dmax + wx + wc * maxPref) * boost;
      order.add(b);
    }
    order.start(onlyIneligible, bound);

    const heap = new TopHeap(n, this.ids);
    let scored = 0;
    let visited = 0;
    const { exp, cat, guild, minXp, minRep, prem, rs, ps, lat, lng, plat, plng, poster, performer } = this;
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
      const end = Math.min(this.size, (b + 1) * this.B);
      for (let i = b * this.B; i < end; i++) {
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
        const eligible = eligibility(reader, terms).eligible;
        if (full && cutEligible && !eligible) continue;
        const boost = member ? q.guildBoost : 1;
        const R = rs[i]!;
        const u = 1 - (ex - now) / 3600 / 168;
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
        if (!located || mLat !== mLat) D = 0.5;
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
            D = low > 0 ? 1 - low / 50_000 : 1;
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
        id: this.ids.get(heap.slotOf(r))!, eligible: heap.eligibleOf(r), distance: distance === distance ? distance : null,
        reward_score: f[o + 1]!, urgency_score: f[o + 2]!, distance_score: f[o + 3]!, xp_match_score: f[o + 4]!,
        poster_score: f[o + 5]!, category_score: f[o + 6]!, guild_boost: f[o + 7]!, final_score: heap.scoreOf(r),
      };
    });
    return { rows, scored, visited };
  }
}


/** The map's question (feed-index near()). */
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

/**
 * The map's groups: the missions of one grid square shown (to non-parties) at one neighbourhood point,
 * with a box around their exact points (ECEF, widened on every write) and a lower bound of their
 * expiries. A group whose box is wholly inside a circle and whose missions are all unexpired counts
 * whole for that point without reading its missions; one wholly outside is skipped; only the groups
 * the circle's edge crosses are read mission by mission.
 *
 * In typed arrays, one entry per group (a group's missions are a list through the store's per-slot
 * gNext/gPrev): as objects with an array each, the 113k groups of the 1M-mission index were ~340k
 * objects that every full garbage collection marked (about 70 ms of it on this machine).
 */
class GroupTable {
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

  add(key: number, pos: number): number {
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
    return g;
  }

  /** Where group g's slots, ascending by id, start in `idPool` (built on first use after a change). */
  idOrder(g: number, next: Int32Array, ids: SlotStrings, missions: number): number {
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
    for (let i = this.head[g]!; i >= 0; i = next[i]!) slots.push(i);
    slots.sort((a, b) => ids.compare(a, b));
    o = this.idUsed;
    this.idPool.set(slots, o);
    this.idUsed += n;
    this.byId[g] = o;
    return o;
  }

  /**
   * How many of group g's missions are not after `now` (expired at `now`): binary search over its
   * sorted expiries. `missions`: the store's size, to which the pool grows (twice it, so that rebuilt
   * lists do not empty it at once) before it is emptied and refilled.
   */
  expiredAt(g: number, now: number, exp: Float64Array, next: Int32Array, missions: number): number {
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
      for (let i = this.head[g]!; i >= 0; i = next[i]!) this.pool[k++] = exp[i]!;
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
    this.nextInSquare = i32(this.nextInSquare); this.sorted = i32(this.sorted); this.byId = i32(this.byId);
    const box = new Float64Array(6 * cap); box.set(this.box); this.box = box;
    const m = new Float64Array(cap); m.set(this.minExp); this.minExp = m;
  }
}

/** The map's grid squares (degrees): a 5-km circle meets about 50, a 500-m one 1 to 4. */
const GRID_DEG = 0.02;
/** A grid square's key: ≥ 1 for any latitude and longitude (0 means none). */
const gridKey = (i: number, j: number) => (i + 5000) * 20000 + (j + 10000);

/** The `cap` nearest (distance, then id): a binary heap whose root is the farthest kept. */
class NearHeap {
  private d: number[] = [];
  private s: number[] = [];
  constructor(private cap: number, private ids: SlotStrings) {}
  /** x after y: farther, or as far with a larger id. */
  private after(dx: number, sx: number, dy: number, sy: number): boolean {
    return dx !== dy ? dx > dy : this.ids.compare(sx, sy) > 0;
  }
  offer(dist: number, slot: number): void {
    const d = this.d, s = this.s;
    if (d.length < this.cap) {
      d.push(dist); s.push(slot);
      let i = d.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.after(d[i]!, s[i]!, d[p]!, s[p]!)) break;
        [d[p], d[i]] = [d[i]!, d[p]!]; [s[p], s[i]] = [s[i]!, s[p]!];
        i = p;
      }
      return;
    }
    if (this.cap === 0 || !this.after(d[0]!, s[0]!, dist, slot)) return;
    d[0] = dist; s[0] = slot;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let w = i;
      if (l < d.length && this.after(d[l]!, s[l]!, d[w]!, s[w]!)) w = l;
      if (r < d.length && this.after(d[r]!, s[r]!, d[w]!, s[w]!)) w = r;
      if (w === i) break;
      [d[w], d[i]] = [d[i]!, d[w]!]; [s[w], s[i]] = [s[i]!, s[w]!];
      i = w;
    }
  }
  /** Slots nearest first. */
  sorted(): number[] {
    const idx = this.d.map((_, i) => i);
    idx.sort((a, b) => (this.after(this.d[a]!, this.s[a]!, this.d[b]!, this.s[b]!) ? 1 : -1));
    return idx.map((i) => this.s[i]!);
  }
}

/** A kept entry's factors, in `TopHeap.f` (F per entry): distance (NaN: none), R, U, D, X, P, C, guild boost. */
const F = 8;

/**
 * The best `cap` entries: a binary heap whose root is the worst kept (eligible, score desc, id asc).
 * Entries are records in typed arrays (the heap orders record numbers; a pushed entry overwrites the
 * evicted worst's record), so a ranking allocates a few arrays, not two objects per admitted candidate
 * (hundreds to thousands a request, enough young garbage to drive the API's scavenges).
 */
/**
 * The blocks of a ranking, best first (eligible before only-ineligible, then the higher bound, then the
 * lower block number), taken lazily from a binary heap: a ranking stops after a few dozen of ~3,900
 * blocks (page 1) or a few hundred (page 50), and sorting them all took ~45k comparisons a ranking.
 */
class BlockQueue {
  private q: Int32Array;
  private n = 0;
  private ineligible: Uint8Array = new Uint8Array(0);
  private bound: Float64Array = new Float64Array(0);
  constructor(capacity: number) {
    this.q = new Int32Array(capacity);
  }

  add(block: number): void {
    this.q[this.n++] = block;
  }

  /** Heapifies what was added (O(n)); next() then pops best first. */
  start(onlyIneligible: Uint8Array, bound: Float64Array): void {
    this.ineligible = onlyIneligible;
    this.bound = bound;
    for (let i = (this.n >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The next best block, or -1. */
  next(): number {
    if (this.n === 0) return -1;
    const q = this.q;
    const top = q[0]!;
    q[0] = q[--this.n]!;
    this.down(0);
    return top;
  }

  private first(a: number, b: number): boolean {
    const ia = this.ineligible[a]!, ib = this.ineligible[b]!;
    if (ia !== ib) return ia < ib;
    const ba = this.bound[a]!, bb = this.bound[b]!;
    return ba > bb || (ba === bb && a < b);
  }

  private down(i: number): void {
    const q = this.q, n = this.n;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < n && this.first(q[l]!, q[w]!)) w = l;
      if (r < n && this.first(q[r]!, q[w]!)) w = r;
      if (w === i) return;
      const t = q[w]!; q[w] = q[i]!; q[i] = t;
      i = w;
    }
  }
}

class TopHeap {
  private n = 0;
  private heap: Int32Array;
  private elig: Uint8Array;
  private score: Float64Array;
  private slot: Int32Array;
  readonly f: Float64Array;
  constructor(private cap: number, private ids: SlotStrings) {
    this.heap = new Int32Array(cap);
    this.elig = new Uint8Array(cap);
    this.score = new Float64Array(cap);
    this.slot = new Int32Array(cap);
    this.f = new Float64Array(cap * F);
  }

  /** (eligible, score, slot) ranks before record r. */
  private beforeRec(eligible: boolean, score: number, slot: number, r: number): boolean {
    const e = this.elig[r] === 1;
    if (eligible !== e) return eligible;
    const s = this.score[r]!;
    if (score !== s) return score > s;
    return this.ids.compare(slot, this.slot[r]!) < 0;
  }

  /** Record a ranks before record b. */
  private before(a: number, b: number): boolean {
    return this.beforeRec(this.elig[a] === 1, this.score[a]!, this.slot[a]!, b);
  }

  /** Would an entry with this (or a lower) score enter? */
  admits(eligible: boolean, score: number, slot: number): boolean {
    if (this.n < this.cap) return true;
    return this.beforeRec(eligible, score, slot, this.heap[0]!);
  }

  /** Adds an entry; when full, it replaces the worst (callers ask admits() first). */
  push(eligible: boolean, score: number, slot: number, distance: number | null, R: number, U: number, D: number, X: number, P: number, C: number, boost: number): void {
    const h = this.heap;
    const appending = this.n < this.cap;
    const r = appending ? this.n : h[0]!; // a full heap's worst leaves: its record takes the new entry
    this.elig[r] = eligible ? 1 : 0;
    this.score[r] = score;
    this.slot[r] = slot;
    const f = this.f, o = r * F;
    f[o] = distance ?? NaN; f[o + 1] = R; f[o + 2] = U; f[o + 3] = D; f[o + 4] = X; f[o + 5] = P; f[o + 6] = C; f[o + 7] = boost;
    if (appending) {
      // Up from the end, while the parent ranks before (is better than) the entry.
      let i = this.n++;
      h[i] = r;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.before(h[p]!, h[i]!)) break;
        const t = h[p]!; h[p] = h[i]!; h[i] = t;
        i = p;
      }
      return;
    }
    this.siftDownRoot();
  }

  /** Down from the root, swapping with the worse child while it ranks after the root's record. */
  private siftDownRoot(): void {
    const h = this.heap;
    const n = this.n;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const rr = l + 1;
      let w = i;
      if (l < n && this.before(h[w]!, h[l]!)) w = l;
      if (rr < n && this.before(h[w]!, h[rr]!)) w = rr;
      if (w === i) break;
      const t = h[w]!; h[w] = h[i]!; h[i] = t;
      i = w;
    }
  }

  full(): boolean {
    return this.n >= this.cap;
  }

  count(): number {
    return this.n;
  }

  worstScore(): number {
    return this.score[this.heap[0]!]!;
  }

  worstEligible(): boolean {
    return this.elig[this.heap[0]!] === 1;
  }

  /**
   * The worst `count` records, best first, taken out of the heap (a page is the tail of the best
   * skip + take: page 50 pops 20 of 1,000 in ~200 comparisons, where sorting all 1,000 took ~20,000).
   */
  popWorst(count: number): number[] {
    const h = this.heap;
    const out = new Array<number>(Math.max(0, Math.min(count, this.n)));
    for (let k = out.length - 1; k >= 0; k--) {
      out[k] = h[0]!;
      h[0] = h[--this.n]!;
      this.siftDownRoot();
    }
    return out;
  }

  eligibleOf(r: number): boolean {
    return this.elig[r] === 1;
  }

  scoreOf(r: number): number {
    return this.score[r]!;
  }

  slotOf(r: number): number {
    return this.slot[r]!;
  }
}

/**
 * The index of one API copy: loads on first use, follows the read model before every ranking.
 * `maxIdleMs`: a copy that has not synced for this long reloads (removals are kept for a day).
 */
export function createFeedIndex(source: FeedIndexSource, opts: { maxIdleMs?: number; block?: number } = {}) {
  const maxIdleMs = opts.maxIdleMs ?? 6 * 3600_000;
  let store: FeedStore | null = null;
  let cursor = 0n;
  let syncedAt = 0;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  async function load() {
    const fresh = new FeedStore({ block: opts.block });
    const at = await source.snapshot((rows) => { for (const r of rows) fresh.upsert(r); });
    fresh.compact();
    store = fresh;
    cursor = at;
  }

  async function catchUp() {
    if (!store || Date.now() - syncedAt > maxIdleMs) await load();
    for (;;) {
      const c = await source.changesAfter(cursor);
      if (c.reload) {
        await load();
        continue;
      }
      for (const ch of c.changes) {
        if ("upsert" in ch) store!.upsert(ch.upsert);
        else store!.remove(ch.removed);
      }
      cursor = c.cursor;
      if (!c.more) break;
    }
    store!.maybeCompact();
    syncedAt = Date.now();
  }

  /**
   * Resolves once a catch-up that STARTED after this call has finished: a change committed before the
   * call is in the index. Concurrent callers share one catch-up (and the one queued behind it).
   */
  function sync(): Promise<void> {
    if (!running) {
      running = catchUp().finally(() => { running = null; });
      return running;
    }
    if (!next) {
      next = running.catch(() => {}).then(() => {
        next = null;
        return sync();
      });
    }
    return next;
  }

  /**
   * `compute` over the index as of the read model now, with the rows of the ids it picked. Fast path
   * (one round trip): compute at the current cursor, then read the rows and whether anything changed
   * after that cursor in one statement; unchanged, the answer is the snapshot's. Otherwise (or on first
   * use, or after a long idle) catch up, compute again and read the rows. A change committed before the
   * call is after the cursor or applied, so read-your-writes holds either way.
   */
  async function current<T, R>(
    compute: (s: FeedStore) => T,
    read: { at: (r: T, cursor: bigint) => Promise<{ newer: boolean; got: R }>; now: (r: T) => Promise<R> },
  ): Promise<{ result: T; got: R }> {
    if (store && !running && Date.now() - syncedAt <= maxIdleMs) {
      const at = cursor;
      const result = compute(store);
      const { newer, got } = await read.at(result, at);
      if (!newer) {
        if (cursor === at) syncedAt = Date.now();
        return { result, got };
      }
    }
    await sync();
    const result = compute(store!);
    return { result, got: await read.now(result) };
  }
  /** current() with the rows of the ids a computation picked, read from the read model. */
  const withRows = <T>(compute: (s: FeedStore) => T, idsOf: (r: T) => string[]) =>
    current(compute, {
      at: async (r, at) => {
        const { newer, rows } = await source.rowsAt(idsOf(r), at);
        return { newer, got: rows };
      },
      now: (r) => source.rows(idsOf(r)),
    });

  return {
    sync,
    /** A ranked page (the index's state after a sync). */
    async rank(q: FeedIndexQuery): Promise<{ rows: (RankedRow & Pick<ShownRow, "guild_name" | "poster_id" | "poster_name">)[]; scored: number; visited: number }> {
      const { result: { rows, scored, visited }, got: shown } = await withRows((s) => s.rank(q), (r) => r.rows.map((x) => x.id));
      const byId = new Map(shown.map((r) => [r.id, r]));
      const out: (RankedRow & Pick<ShownRow, "guild_name" | "poster_id" | "poster_name">)[] = [];
      for (const r of rows) {
        const c = byId.get(r.id);
        if (c) out.push({ ...c, ...r });
      }
      return { rows: out, scored, visited };
    },
    /**
     * The map (FeedStore.near) as of a sync, with the rows of the nearest, nearest first, from the index
     * itself; the one round trip checks the cursor and reads the page's guild names.
     */
    async near(q: NearQuery): Promise<{ positions: { latitude: number; longitude: number; count: number }[]; nearest: (MapRow & { guild_name: string | null })[]; visited: number }> {
      const guildsOf = (rows: MapRow[]) => [...new Set(rows.flatMap((x) => (x.guild_uuid === null ? [] : [x.guild_uuid])))];
      const { result: r, got: names } = await current(
        (s) => {
          const found = s.near(q);
          return { ...found, rows: s.mapRows(found.nearest) };
        },
        {
          at: async (r, at) => {
            const { newer, names } = await source.guildNamesAt(guildsOf(r.rows), at);
            return { newer, got: names };
          },
          now: (r) => source.guildNames(guildsOf(r.rows)),
        },
      );
      const nearest = r.rows.map((x) => ({ ...x, guild_name: x.guild_uuid === null ? null : (names.get(x.guild_uuid) ?? null) }));
      return { positions: r.positions, nearest, visited: r.visited };
    },
    /** Open missions held (diagnostics). */
    size: () => store?.count() ?? 0,
    /** Whether the index has loaded once (rankings no longer wait for a full load). */
    loaded: () => store !== null,
    /** Whether the index holds this open mission (as of its last sync). */
    has: (id: string) => store?.has(id) ?? false,
  };
}
export type FeedIndex = ReturnType<typeof createFeedIndex>;
