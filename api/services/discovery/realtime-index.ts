// Geohash subscription index of the WebSocket hub: which connections get a mission created at a
// given exact geohash-12, without scanning every connection (benchmark B8: 5,000 clients).
//
// The rule it implements is `areaMatches` (realtime.ts), per connection and per privacy class:
//   - a non-party sees only the public geohash-6 cell, so a prefix matches when it is a prefix of the
//     cell (length ≤ 6) or lies inside the cell (length > 6: the cell is all it can know);
//   - a party (poster/performer) matches on the exact geohash: exact.startsWith(prefix).
// Prefixes of length ≤ 6 are a prefix of the cell iff they are a prefix of the exact hash, so both
// classes share `shallow` (6 map lookups per mission). Longer prefixes live in `deep` under their
// cell; only there does the class matter.
import { NEIGHBORHOOD_GEOHASH_LENGTH } from "./location-privacy.ts";

const CELL = NEIGHBORHOOD_GEOHASH_LENGTH;

export interface Subscriber {
  /** Subscribed prefixes (lower-case geohash, 1..12 chars). */
  readonly areas: Set<string>;
  /** Last fan-out that reached this subscriber: de-duplicates overlapping prefixes. */
  mark: number;
}

export class SubscriptionIndex<S extends Subscriber> {
  /** prefix (1..6 chars) -> subscribers of exactly that prefix. */
  private readonly shallow = new Map<string, Set<S>>();
  /** cell (6 chars) -> subscribers with at least one prefix longer than 6 inside that cell. */
  private readonly deep = new Map<string, Set<S>>();
  private epoch = 0;

  /** Adds `prefix` to `s.areas` and indexes it; false when it was already there. */
  add(s: S, prefix: string): boolean {
    if (s.areas.has(prefix)) return false;
    s.areas.add(prefix);
    const key = prefix.length <= CELL ? prefix : prefix.slice(0, CELL);
    const map = prefix.length <= CELL ? this.shallow : this.deep;
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(s);
    return true;
  }

  remove(s: S, prefix: string): boolean {
    if (!s.areas.delete(prefix)) return false;
    if (prefix.length <= CELL) {
      dropFrom(this.shallow, prefix, s);
      return true;
    }
    const cell = prefix.slice(0, CELL);
    // Still another long prefix in this cell: stay in the deep bucket.
    for (const a of s.areas) if (a.length > CELL && a.startsWith(cell)) return true;
    dropFrom(this.deep, cell, s);
    return true;
  }

  removeAll(s: S): void {
    for (const a of [...s.areas]) this.remove(s, a);
  }

  /**
   * Calls `deliver(s, party)` exactly once for every subscriber the mission at `exact` (geohash-12)
   * is visible to, `party` telling the privacy class. O(matching subscribers), not O(connections).
   */
  forEachMatch(exact: string, isParty: (s: S) => boolean, deliver: (s: S, party: boolean) => void): void {
    const mark = ++this.epoch;
    for (let len = 1; len <= CELL; len++) {
      const set = this.shallow.get(exact.slice(0, len));
      if (!set) continue;
      for (const s of set) {
        if (s.mark === mark) continue;
        s.mark = mark;
        deliver(s, isParty(s));
      }
    }
    const deepSet = this.deep.get(exact.slice(0, CELL));
    if (!deepSet) return;
    for (const s of deepSet) {
      if (s.mark === mark) continue;
      const party = isParty(s);
      // A party sees the exact point: one of its long prefixes must contain it.
      if (party && !longPrefixContains(s.areas, exact)) continue;
      s.mark = mark;
      deliver(s, party);
    }
  }

  /** Number of indexed (prefix, subscriber) pairs; for tests. */
  size(): number {
    let n = 0;
    for (const set of this.shallow.values()) n += set.size;
    for (const set of this.deep.values()) n += set.size;
    return n;
  }
}

function longPrefixContains(areas: Set<string>, exact: string): boolean {
  for (const a of areas) if (a.length > CELL && exact.startsWith(a)) return true;
  return false;
}

function dropFrom<S>(map: Map<string, Set<S>>, key: string, s: S): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(s);
  if (set.size === 0) map.delete(key);
}
