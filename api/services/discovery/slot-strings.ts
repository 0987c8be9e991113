/**
 * Strings addressed by a small integer (a slot), with a hash index from string to slot, held in typed
 * arrays. The feed index keeps one per mission id and per address: as a string[] plus a
 * Map<string, number>, a million ids are two million objects that every full garbage collection marks
 * (about 100 ms of the 308 ms a full collection took over the 1M-mission index on this machine, and
 * the API's one core stalls for it); here they are six array buffers the collector does not walk.
 *
 * Characters are UTF-16 code units, so any string round-trips and compare() orders as JavaScript's
 * `<` does. A removed string's characters stay in the buffer until clear() (the index rebuilds its
 * layout, and with it this table, once a quarter of its slots are dead).
 */
export class SlotStrings {
  private text = new SlotText();
  // Open addressing, linear probing: 0 empty, -1 a removed entry, otherwise slot + 1.
  private table = new Int32Array(0);
  private held = 0;
  private marks = 0; // held + removed entries still in the table

  /** Strings held. */
  get size(): number {
    return this.held;
  }

  /** The slot holding `s`, or -1. */
  find(s: string): number {
    const t = this.table;
    if (t.length === 0) return -1;
    const mask = t.length - 1;
    for (let i = hashOf(s) & mask; ; i = (i + 1) & mask) {
      const e = t[i]!;
      if (e === 0) return -1;
      if (e > 0 && this.text.equals(e - 1, s)) return e - 1;
    }
  }

  has(slot: number): boolean {
    return this.text.has(slot);
  }

  /** The string at `slot`, or undefined. */
  get(slot: number): string | undefined {
    return this.text.get(slot);
  }

  /** Puts `s` at `slot`. The slot must be free and `s` held by no other slot. */
  set(slot: number, s: string): void {
    if (this.text.has(slot)) throw new Error(`slot ${slot} already holds a string`);
    this.text.set(slot, s);
    if ((this.marks + 1) * 2 > this.table.length) this.rehash(Math.max(1024, pow2(this.held * 4 + 4)));
    this.insert(slot, hashOf(s));
    this.held++;
    this.marks++;
  }

  /** Frees `slot` (a no-op when it holds nothing). */
  delete(slot: number): void {
    if (!this.text.has(slot)) return;
    const t = this.table;
    const mask = t.length - 1;
    for (let i = this.text.hash(slot) & mask; ; i = (i + 1) & mask) {
      if (t[i] === slot + 1) {
        t[i] = -1;
        break;
      }
    }
    this.text.delete(slot);
    this.held--;
  }

  /** The order of JavaScript's `<` on the two slots' strings (-1, 0, 1); an empty slot is "". */
  compare(a: number, b: number): number {
    return this.text.compare(a, b);
  }

  /** Removes every string and releases the buffers. */
  clear(): void {
    this.text = new SlotText();
    this.table = new Int32Array(0);
    this.held = 0;
    this.marks = 0;
  }

  private insert(slot: number, hash: number): void {
    const t = this.table;
    const mask = t.length - 1;
    let i = hash & mask;
    while (t[i]! > 0) i = (i + 1) & mask;
    if (t[i] === -1) this.marks--; // reuses a removed entry's place
    t[i] = slot + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    this.marks = 0;
    for (let slot = 0, n = this.text.slots; slot < n; slot++) {
      if (!this.text.has(slot)) continue;
      this.insert(slot, this.text.hash(slot));
      this.marks++;
    }
  }
}

/**
 * Strings addressed by slot only (no lookup by string, so any two slots may hold the same text), in one
 * UTF-16 buffer with offsets: SlotStrings' storage, and on its own what the map shows of a mission
 * (reward, title, category), since 700k titles as JavaScript strings would be 700k more objects for
 * every full collection to mark. Replacing a slot's text appends the new one; the old characters stay
 * until the owner builds a new table (the index does at each re-layout).
 */
export class SlotText {
  private chars = new Uint16Array(0);
  private used = 0;
  private off = new Int32Array(0);
  private len = new Int32Array(0); // -1: the slot holds no text

  /** Slots addressable without growing (every slot from here on is empty). */
  get slots(): number {
    return this.len.length;
  }

  has(slot: number): boolean {
    return slot >= 0 && slot < this.len.length && this.len[slot]! >= 0;
  }

  /** The text at `slot`, or undefined. */
  get(slot: number): string | undefined {
    if (!this.has(slot)) return undefined;
    const o = this.off[slot]!;
    return String.fromCharCode.apply(null, this.chars.subarray(o, o + this.len[slot]!) as unknown as number[]);
  }

  /** Puts `s` at `slot` (replacing what it held; the same text again writes nothing). */
  set(slot: number, s: string): void {
    if (slot >= this.len.length) {
      const n = Math.max(1024, this.len.length * 2, slot + 1);
      const off = new Int32Array(n);
      off.set(this.off);
      const len = new Int32Array(n).fill(-1);
      len.set(this.len);
      this.off = off;
      this.len = len;
    } else if (this.equals(slot, s)) return;
    if (this.used + s.length > this.chars.length) {
      const c = new Uint16Array(Math.max(1 << 16, this.chars.length * 2, this.used + s.length));
      c.set(this.chars.subarray(0, this.used));
      this.chars = c;
    }
    const o = this.used;
    for (let k = 0; k < s.length; k++) this.chars[o + k] = s.charCodeAt(k);
    this.used += s.length;
    this.off[slot] = o;
    this.len[slot] = s.length;
  }

  delete(slot: number): void {
    if (this.has(slot)) this.len[slot] = -1;
  }

  /** Whether `slot` holds exactly `s` (false when it holds nothing). */
  equals(slot: number, s: string): boolean {
    if (slot >= this.len.length || this.len[slot] !== s.length) return false;
    const o = this.off[slot]!;
    const c = this.chars;
    for (let k = 0; k < s.length; k++) if (c[o + k] !== s.charCodeAt(k)) return false;
    return true;
  }

  /** hashOf() of the slot's text, from the buffer. */
  hash(slot: number): number {
    const o = this.off[slot]!, n = this.len[slot]!;
    const c = this.chars;
    let h = FNV_OFFSET;
    for (let k = 0; k < n; k++) h = Math.imul(h ^ c[o + k]!, FNV_PRIME);
    return h >>> 0;
  }

  /** The order of JavaScript's `<` on the two slots' texts (-1, 0, 1); an empty slot is "". */
  compare(a: number, b: number): number {
    const la = this.has(a) ? this.len[a]! : 0, lb = this.has(b) ? this.len[b]! : 0;
    const oa = this.off[a] ?? 0, ob = this.off[b] ?? 0;
    const c = this.chars;
    for (let k = 0, n = Math.min(la, lb); k < n; k++) {
      const d = c[oa + k]! - c[ob + k]!;
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    return la === lb ? 0 : la < lb ? -1 : 1;
  }
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashOf(s: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), FNV_PRIME);
  return h >>> 0;
}

function pow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
