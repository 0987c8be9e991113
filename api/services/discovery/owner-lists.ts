/**
 * Each address's missions in the feed index (as poster, and as performer when that is another
 * address), as doubly linked lists threaded through typed arrays. The map shows a viewer their own
 * missions at the exact point, so it walks the viewer's list; a write moves a slot in or out of two
 * lists at most.
 *
 * As a Map<number, number[]>, 100,000 addresses were 230,000 heap objects (25 MB) that every full
 * garbage collection marks, on the API's one core, in the middle of requests; here they are four
 * array buffers the collector does not walk.
 *
 * A link is 2 × slot + role (0: poster, 1: performer). Lists are in no particular order.
 */
export class OwnerLists {
  private head = new Int32Array(0); // per address: its first link, -1 none
  private next = new Int32Array(0); // per link: the next link of the same list, -1 last
  private prev = new Int32Array(0); // per link: the previous link, -1 first; -2 not in a list

  /** Links `slot` into `addr`'s list in `role`. The slot must not be in a list in that role. */
  add(slot: number, role: 0 | 1, addr: number): void {
    const l = 2 * slot + role;
    this.room(l, addr);
    if (this.prev[l] !== -2) throw new Error(`slot ${slot} is already listed as ${role ? "performer" : "poster"}`);
    const h = this.head[addr]!;
    this.next[l] = h;
    this.prev[l] = -1;
    if (h >= 0) this.prev[h] = l;
    this.head[addr] = l;
  }

  /** Unlinks `slot` from `addr`'s list in `role` (a no-op when it is not there). */
  remove(slot: number, role: 0 | 1, addr: number): void {
    const l = 2 * slot + role;
    if (l >= this.prev.length || this.prev[l] === -2) return;
    const p = this.prev[l]!, n = this.next[l]!;
    if (p >= 0) this.next[p] = n;
    else if (this.head[addr] === l) this.head[addr] = n;
    else throw new Error(`slot ${slot} is not in the list of address ${addr}`);
    if (n >= 0) this.prev[n] = p;
    this.prev[l] = -2;
  }

  /** The first link of `addr`'s list, -1 when empty; `slotOf(link)` is its slot. */
  first(addr: number): number {
    return addr >= 0 && addr < this.head.length ? this.head[addr]! : -1;
  }

  /** The link after `link` in its list, -1 at the end. */
  after(link: number): number {
    return this.next[link]!;
  }

  slotOf(link: number): number {
    return link >> 1;
  }

  /** Empties every list and releases the buffers. */
  clear(): void {
    this.head = new Int32Array(0);
    this.next = new Int32Array(0);
    this.prev = new Int32Array(0);
  }

  private room(link: number, addr: number) {
    if (link >= this.prev.length) {
      const n = Math.max(1024, 2 * (link + 1));
      const next = new Int32Array(n);
      next.set(this.next);
      const prev = new Int32Array(n).fill(-2);
      prev.set(this.prev);
      this.next = next;
      this.prev = prev;
    }
    if (addr >= this.head.length) {
      const head = new Int32Array(Math.max(1024, 2 * (addr + 1))).fill(-1);
      head.set(this.head);
      this.head = head;
    }
  }
}
