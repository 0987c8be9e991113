// What each block of the store's slots can hold, for the ranking to pass over whole blocks that cannot
// reach its page (rank.ts). Widened on every write, never narrowed until the next layout.
import { WEIGHTS } from "../feed-scoring.ts";

/** Seconds in the urgency horizon (168 hours): the urgency term is WEIGHTS.urgency · (1 − left / WEEK). */
export const WEEK = 604800;

export class BlockBounds {
  // Static keys: k1 = WEIGHTS.reward·R + WEIGHTS.posterReputation·P (no urgency), k2 = k1 −
  // WEIGHTS.urgency·expires/WEEK (so k1 + urgency term ≤ max(k1, k2 + WEIGHTS.urgency·(1 + now/WEEK))).
  k1 = new Float64Array(0);
  k2 = new Float64Array(0);
  /** Min and max shown latitude (+Infinity / -Infinity when none). */
  lo = new Float64Array(0);
  hi = new Float64Array(0);
  /** 1: the block holds a mission without a point. */
  noPoint = new Uint8Array(0);
  /** Category bit mask (bit min(id, 31)). */
  cats = new Int32Array(0);
  /** The block's one guild id, -1 none, -2 several (or mixed). */
  guild = new Int32Array(0);
  /** 1: no mission written since the layout. */
  empty = new Uint8Array(0);

  /** Room for `blocks` blocks (new ones empty). */
  grow(blocks: number): void {
    const bf = (a: Float64Array, fill: number) => { const b = new Float64Array(blocks).fill(fill); b.set(a); return b; };
    this.k1 = bf(this.k1, -Infinity); this.k2 = bf(this.k2, -Infinity); this.lo = bf(this.lo, Infinity); this.hi = bf(this.hi, -Infinity);
    const nb = new Uint8Array(blocks); nb.set(this.noPoint); this.noPoint = nb;
    const bc = new Int32Array(blocks); bc.set(this.cats); this.cats = bc;
    const bg = new Int32Array(blocks).fill(-1); bg.set(this.guild); this.guild = bg;
    const be = new Uint8Array(blocks).fill(1); be.set(this.empty); this.empty = be;
  }

  /**
   * Widens block b to cover a mission: reward score R, poster score P, expiry (s), shown latitude la
   * (NaN: no point), category id and guild id (-1: none).
   */
  widen(b: number, R: number, P: number, expiresAt: number, la: number, cat: number, guild: number): void {
    const k1 = WEIGHTS.reward * R + WEIGHTS.posterReputation * P;
    const k2 = k1 - (WEIGHTS.urgency * expiresAt) / WEEK;
    if (k1 > this.k1[b]!) this.k1[b] = k1;
    if (k2 > this.k2[b]!) this.k2[b] = k2;
    if (la !== la) this.noPoint[b] = 1;
    else {
      if (la < this.lo[b]!) this.lo[b] = la;
      if (la > this.hi[b]!) this.hi[b] = la;
    }
    this.cats[b]! |= 1 << Math.min(cat, 31);
    if (this.empty[b]) this.guild[b] = guild;
    else if (this.guild[b] !== guild) this.guild[b] = -2;
    this.empty[b] = 0;
  }
}
