// SubscriptionIndex (the hub's fan-out lookup) must deliver exactly what the reference rule
// `areaMatches` says, once per connection, for both privacy classes: property-based over random
// prefixes near one point, random subscribe/unsubscribe sequences and random parties.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { areaMatches } from "../../api/services/discovery/realtime.ts";
import { SubscriptionIndex, type Subscriber } from "../../api/services/discovery/realtime-index.ts";

const ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";
interface Sub extends Subscriber {
  id: number;
  party: boolean;
}

// Hashes that share long prefixes with each other, so matches of every length happen.
const base = "u33dc0cpnxyz";
const hashArb = fc
  .tuple(fc.integer({ min: 0, max: 12 }), fc.array(fc.constantFrom(...ALPHABET), { minLength: 12, maxLength: 12 }))
  .map(([keep, tail]) => (base.slice(0, keep) + tail.join("")).slice(0, 12));
const prefixArb = fc.tuple(hashArb, fc.integer({ min: 1, max: 12 })).map(([h, n]) => h.slice(0, n));

describe("SubscriptionIndex", () => {
  it("delivers exactly the areaMatches set, each subscriber once", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ party: fc.boolean(), ops: fc.array(fc.tuple(fc.boolean(), prefixArb), { maxLength: 8 }) }),
          { minLength: 1, maxLength: 12 },
        ),
        hashArb,
        (subs, exact) => {
          const index = new SubscriptionIndex<Sub>();
          const all: Sub[] = subs.map((s, id) => ({ id, party: s.party, areas: new Set(), mark: 0 }));
          subs.forEach((s, i) => {
            for (const [add, p] of s.ops) (add ? index.add(all[i]!, p) : index.remove(all[i]!, p));
          });
          const got: number[] = [];
          index.forEachMatch(exact, (s) => s.party, (s, party) => {
            expect(party).toBe(s.party);
            got.push(s.id);
          });
          const want = all.filter((s) => [...s.areas].some((a) => areaMatches(a, exact, s.party))).map((s) => s.id);
          expect(got.sort((a, b) => a - b)).toEqual(want);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("removeAll empties the index; a second long prefix in a cell survives the removal of the first", () => {
    const index = new SubscriptionIndex<Sub>();
    const s: Sub = { id: 1, party: false, areas: new Set(), mark: 0 };
    index.add(s, "u33dc0c");
    index.add(s, "u33dc0z");
    index.add(s, "u3");
    index.remove(s, "u33dc0c");
    const hits: number[] = [];
    index.forEachMatch("u33dc0bbbbbb", () => false, (x) => hits.push(x.id));
    expect(hits).toEqual([1]);
    index.removeAll(s);
    expect(index.size()).toBe(0);
    expect(s.areas.size).toBe(0);
  });
});
