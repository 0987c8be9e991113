// OwnerLists (api/services/discovery/owner-lists.ts): the feed index's per-address lists of slots must
// hold exactly what a Map<address, Set<slot>> per role holds under any sequence of adds and removes,
// through the buffers' growth, and refuse a slot listed twice in one role.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OwnerLists } from "../../api/services/discovery/owner-lists.ts";

type Op = { kind: "add" | "remove"; slot: number; role: 0 | 1; addr: number };

const op: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom("add" as const, "remove" as const),
  slot: fc.nat({ max: 2500 }),
  role: fc.constantFrom(0 as const, 1 as const),
  addr: fc.nat({ max: 1500 }),
});

const listOf = (o: OwnerLists, addr: number) => {
  const out: string[] = [];
  for (let l = o.first(addr); l >= 0; l = o.after(l)) out.push(`${o.slotOf(l)}:${l & 1}`);
  return out.sort();
};

describe("OwnerLists", () => {
  it("agrees with a Map of Sets after any sequence of adds and removes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 1200 }), (ops) => {
        const o = new OwnerLists();
        const ref = new Map<number, Set<string>>();
        const where = new Map<string, number>(); // "slot:role" -> address
        for (const x of ops) {
          const key = `${x.slot}:${x.role}`;
          if (x.kind === "add") {
            if (where.has(key)) {
              expect(() => o.add(x.slot, x.role, x.addr)).toThrow();
              continue;
            }
            o.add(x.slot, x.role, x.addr);
            where.set(key, x.addr);
            if (!ref.has(x.addr)) ref.set(x.addr, new Set());
            ref.get(x.addr)!.add(key);
          } else {
            // Removal names the address the slot is listed under (the index knows it); absent: a no-op.
            const a = where.get(key);
            o.remove(x.slot, x.role, a ?? x.addr);
            if (a !== undefined) {
              ref.get(a)!.delete(key);
              where.delete(key);
            }
          }
        }
        for (let a = 0; a <= 1501; a++) expect(listOf(o, a)).toEqual([...(ref.get(a) ?? [])].sort());
      }),
      { numRuns: 60 },
    );
  });

  it("answers empty for an address it never saw, and after clear()", () => {
    const o = new OwnerLists();
    expect(o.first(5)).toBe(-1);
    expect(o.first(-1)).toBe(-1);
    o.add(3, 0, 5);
    o.add(4, 1, 5);
    expect(listOf(o, 5)).toEqual(["3:0", "4:1"]);
    o.clear();
    expect(o.first(5)).toBe(-1);
    o.add(3, 0, 5);
    expect(listOf(o, 5)).toEqual(["3:0"]);
  });
});
