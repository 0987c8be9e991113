// SlotStrings (api/services/discovery/slot-strings.ts): the feed index's typed-array string table must
// behave as a Map<string, slot> plus a string[] under any sequence of puts and removals, through its
// table's growth and reuse of removed entries, and order strings as JavaScript's `<` does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SlotStrings, SlotText } from "../../api/services/discovery/slot-strings.ts";

type Op = { kind: "set"; slot: number; s: string } | { kind: "delete"; slot: number };

// A small alphabet (collisions and shared prefixes), the empty string, and code units above 255.
const str = fc.string({ unit: fc.constantFrom("a", "b", "0", "-", "é", "\u2603", "\ud83d", "\ude00"), maxLength: 6 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("set" as const), slot: fc.nat({ max: 3000 }), s: str }),
  fc.record({ kind: fc.constant("delete" as const), slot: fc.nat({ max: 3000 }) }),
);

describe("SlotStrings", () => {
  it("agrees with a Map and an array after any sequence of sets and deletes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 1500 }), (ops) => {
        const t = new SlotStrings();
        const bySlot = new Map<number, string>();
        const byString = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === "set") {
            if (bySlot.has(o.slot) || byString.has(o.s)) {
              if (bySlot.has(o.slot)) expect(() => t.set(o.slot, o.s)).toThrow();
              continue;
            }
            t.set(o.slot, o.s);
            bySlot.set(o.slot, o.s);
            byString.set(o.s, o.slot);
          } else {
            t.delete(o.slot);
            const s = bySlot.get(o.slot);
            if (s !== undefined) byString.delete(s);
            bySlot.delete(o.slot);
          }
        }
        expect(t.size).toBe(bySlot.size);
        for (const [slot, s] of bySlot) {
          expect(t.get(slot)).toBe(s);
          expect(t.find(s)).toBe(slot);
          expect(t.has(slot)).toBe(true);
        }
        for (const o of ops) {
          if (!bySlot.has(o.slot)) {
            expect(t.has(o.slot)).toBe(false);
            expect(t.get(o.slot)).toBeUndefined();
          }
          if (o.kind === "set" && !byString.has(o.s)) expect(t.find(o.s)).toBe(-1);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("compare() orders as JavaScript's < on the strings (an empty slot as \"\")", () => {
    fc.assert(
      fc.property(fc.uniqueArray(str, { minLength: 2, maxLength: 40 }), (strings) => {
        const t = new SlotStrings();
        strings.forEach((s, i) => t.set(i, s));
        const js = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        for (let i = 0; i < strings.length; i++) {
          for (let j = 0; j < strings.length; j++) expect(t.compare(i, j)).toBe(js(strings[i]!, strings[j]!));
          expect(t.compare(i, strings.length + 5)).toBe(js(strings[i]!, ""));
        }
      }),
      { numRuns: 100 },
    );
  });

  it("holds 200,000 ids through growth, removal of half and re-adding them at new slots", () => {
    const t = new SlotStrings();
    const id = (i: number) => `0000${i.toString(16)}-8f3a-8b2c-9d4e-${(i * 7919).toString(16).padStart(12, "0")}`;
    for (let i = 0; i < 200_000; i++) t.set(i, id(i));
    for (let i = 0; i < 200_000; i += 2) t.delete(i);
    for (let i = 0; i < 200_000; i += 2) t.set(200_000 + i, id(i));
    expect(t.size).toBe(200_000);
    const wrong: string[] = []; // one expect for the 400,000 checks (an expect each took 8 s)
    for (let i = 0; i < 200_000; i++) {
      const slot = i % 2 === 0 ? 200_000 + i : i;
      if (t.find(id(i)) !== slot || t.get(slot) !== id(i)) wrong.push(`${i}: find ${t.find(id(i))}, get(${slot}) ${t.get(slot)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(t.find("not-an-id")).toBe(-1);
    t.clear();
    expect(t.size).toBe(0);
    expect(t.find(id(1))).toBe(-1);
  });
});

describe("SlotText", () => {
  it("agrees with an array after any sequence of sets (replacing, equal texts in several slots) and deletes", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 1500 }), (ops) => {
        const t = new SlotText();
        const ref: (string | undefined)[] = [];
        for (const o of ops) {
          if (o.kind === "set") {
            t.set(o.slot, o.s);
            ref[o.slot] = o.s;
          } else {
            t.delete(o.slot);
            ref[o.slot] = undefined;
          }
        }
        const wrong: number[] = []; // one expect for the 3,002 slots
        for (let slot = 0; slot <= 3001; slot++) if (t.get(slot) !== ref[slot] || t.has(slot) !== (ref[slot] !== undefined)) wrong.push(slot);
        expect(wrong).toEqual([]);
        const held = ref.flatMap((x, slot) => (x === undefined ? [] : [slot]));
        for (let k = 1; k < Math.min(held.length, 200); k++) {
          const a = held[k - 1]!, b = held[k]!;
          const x = ref[a]!, y = ref[b]!;
          expect(t.compare(a, b)).toBe(x < y ? -1 : x > y ? 1 : 0);
          expect(t.equals(a, y)).toBe(x === y);
        }
      }),
      { numRuns: 60 },
    );
  });
});
