// The heaps of the feed index: the map's nearest (NearHeap), the ranking's blocks best first
// (BlockQueue) and the ranking's best entries (TopHeap). Ties break by mission id in code-point order.
import type { SlotStrings } from "../slot-strings.ts";

/** The `cap` nearest (distance, then id): a binary heap whose root is the farthest kept. */
export class NearHeap {
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
export const F = 8;

/**
 * The blocks of a ranking, best first (eligible before only-ineligible, then the higher bound, then the
 * lower block number), taken lazily from a binary heap: a ranking stops after a few dozen of ~3,900
 * blocks (page 1) or a few hundred (page 50), and sorting them all took ~45k comparisons a ranking.
 */
export class BlockQueue {
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

/**
 * The best `cap` entries: a binary heap whose root is the worst kept (eligible, score desc, id asc).
 * Entries are records in typed arrays (the heap orders record numbers; a pushed entry overwrites the
 * evicted worst's record), so a ranking allocates a few arrays, not two objects per admitted candidate
 * (hundreds to thousands a request, enough young garbage to drive the API's scavenges).
 */
export class TopHeap {
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
