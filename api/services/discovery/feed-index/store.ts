// The feed index's storage: the open missions in packed arrays, one slot each, laid out in blocks of
// BLOCK slots: missions outside guilds first, then by guild; within that by latitude bucket, then by
// their static part plus urgency at layout time, best first. Each block keeps bounds of what it holds
// (block-bounds.ts), so a ranking passes over whole blocks that cannot reach its page (rank.ts); the
// map's groups (group-table.ts) let the map count whole neighbourhoods (nearest.ts). A removal leaves a
// dead slot; a new mission goes to the tail; the layout is redone when dead and tail slots pass a
// quarter of the store (compact()).
//
// The arrays are public for rank.ts and nearest.ts, which only read them; only this file writes them.
import type { FeedIndexRow } from "../../../repositories/discovery-feed-source.repository.ts";
import type { CandidateRow } from "../../../repositories/discovery-rows.ts";
import { posterReputationScore, rewardScore, WEIGHTS } from "../feed-scoring.ts";
import { ecef } from "../geo.ts";
import { OwnerLists } from "../owner-lists.ts";
import { SlotStrings, SlotText } from "../slot-strings.ts";
import { BlockBounds, WEEK } from "./block-bounds.ts";
import { GroupTable } from "./group-table.ts";

/**
 * A mission as a map marker shows it, from the index (CandidateRow's names): the page of the map needs
 * no read of the rows, only the guild names (title and category are "" when the mission has none).
 */
export type MapRow = Pick<CandidateRow, "id" | "poster" | "performer" | "guild_uuid" | "reward" | "expires_at" | "title" | "category" | "min_guild_xp" | "min_reputation" | "premium">
  & { latitude: number; longitude: number };

/** Strings to small integers (categories, guilds, addresses); ids are never reused. */
export class Interner {
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

const F64 = ["rs", "ps", "exp", "lat", "lng", "plat", "plng", "minXp", "minRep", "ex", "ey", "ez"] as const;
const I32 = ["cat", "guild", "poster", "performer", "pos"] as const;

export class FeedStore {
  /** Slots in use (live, dead and tail). */
  size = 0;
  private live = 0;
  private removedSince = 0;
  /** Slots laid out by the last compaction; later slots are the tail. */
  private laid = 0;
  private cap = 0;
  /** Each slot's mission id, and the slot of an id (dead slots hold none). */
  ids = new SlotStrings();
  /** What the map shows of each mission: reward, title and category, NUL-separated. */
  private text = new SlotText();
  rs = new Float64Array(0); // reward score
  ps = new Float64Array(0); // poster reputation score
  exp = new Float64Array(0); // expires_at (s); -Infinity: dead slot
  lat = new Float64Array(0); // exact point (NaN: none)
  lng = new Float64Array(0);
  plat = new Float64Array(0); // the neighbourhood centre shown to non-parties
  plng = new Float64Array(0);
  minXp = new Float64Array(0); // NaN: no minimum
  minRep = new Float64Array(0); // the mission's minReputation; NaN: none
  prem = new Uint8Array(0); // a premium mission
  cat = new Int32Array(0); // category id; 0: none
  guild = new Int32Array(0); // guild id; -1: none
  poster = new Int32Array(0);
  performer = new Int32Array(0); // -1: none
  // The map's side: the exact point on the sphere (ECEF, meters; NaN: none), the radius test of the SQL
  // (cube_distance of api.geo_ecef), and the id of the shown neighbourhood point (-1: none).
  ex = new Float64Array(0);
  ey = new Float64Array(0);
  ez = new Float64Array(0);
  pos = new Int32Array(0);
  posIds = new Interner();
  posLat: number[] = [];
  posLng: number[] = [];
  /** The map's groups (missions shown at one neighbourhood point, per grid square). */
  gt = new GroupTable();
  /** Each address's slots (poster or performer): the map shows a viewer theirs exactly. */
  owners = new OwnerLists();
  bounds = new BlockBounds();
  cats = new Interner();
  guilds = new Interner();
  addrs = new Interner();

  readonly B: number;

  constructor(opts: { block?: number } = {}) {
    this.B = opts.block ?? BLOCK;
    this.cats.id("\u0000none"); // id 0: no category (never equal to a lowercased category)
  }

  private grow(min: number) {
    const cap = Math.max(4 * this.B, this.cap * 2, Math.ceil(min / this.B) * this.B);
    for (const k of F64) { const b = new Float64Array(cap); b.set(this[k]); this[k] = b; }
    for (const k of I32) { const b = new Int32Array(cap); b.set(this[k]); this[k] = b; }
    const pr = new Uint8Array(cap); pr.set(this.prem); this.prem = pr;
    this.gt.growSlots(cap);
    this.bounds.grow(cap / this.B);
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
  }

  /** Puts slot i in its map group and widens its block's bounds to cover it. */
  private place(i: number) {
    this.gt.place(i, this.lat[i]!, this.lng[i]!, this.pos[i]!, this.ex[i]!, this.ey[i]!, this.ez[i]!, this.exp[i]!);
    this.bounds.widen(Math.floor(i / this.B), this.rs[i]!, this.ps[i]!, this.exp[i]!, this.plat[i]!, this.cat[i]!, this.guild[i]!);
  }

  private positionId(lat: number, lng: number): number {
    const id = this.posIds.id(`${lat},${lng}`);
    if (id === this.posLat.length) {
      this.posLat.push(lat);
      this.posLng.push(lng);
    }
    return id;
  }

  remove(id: string): void {
    const i = this.ids.find(id);
    if (i < 0) return;
    this.ids.delete(i);
    this.text.delete(i);
    this.disown(i);
    this.gt.remove(i);
    this.exp[i] = -Infinity;
    this.live--;
    this.removedSince++;
  }

  has(id: string): boolean {
    return this.ids.find(id) >= 0;
  }

  /** The map's rows of these held missions with a point, in the order given (others are left out). */
  mapRows(ids: string[]): MapRow[] {
    return this.mapRowsAt(ids.map((id) => this.ids.find(id)), ids);
  }

  /**
   * mapRows() of missions already found: `slots[k]` holds `ids[k]` (-1: not held). The map's page
   * comes from near() as slots, so its ids are not hashed and looked up again.
   */
  mapRowsAt(slots: number[], ids: string[]): MapRow[] {
    const out: MapRow[] = [];
    for (let k = 0; k < slots.length; k++) {
      const i = slots[k]!, id = ids[k]!;
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

  /** The layout of the file's comment, from scratch. */
  compact(nowSec = Date.now() / 1000): void {
    const order: number[] = [];
    for (let i = 0; i < this.size; i++) if (this.exp[i] !== -Infinity) order.push(i);
    const key = new Float64Array(this.size);
    const bucket = new Float64Array(this.size);
    for (const i of order) {
      const u = 1 - (this.exp[i]! - nowSec) / WEEK;
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
    for (const k of F64) this[k] = new Float64Array(0);
    for (const k of I32) this[k] = new Int32Array(0);
    this.prem = new Uint8Array(0);
    this.gt = new GroupTable();
    this.bounds = new BlockBounds();
    this.owners.clear();
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
      i++;
    }
    // Padding slots between guilds are dead.
    for (let j = 0; j < i; j++) if (!this.ids.has(j)) { this.exp[j] = -Infinity; this.pos[j] = -1; }
    this.size = i;
    this.laid = i;
    this.removedSince = 0;
  }
}
