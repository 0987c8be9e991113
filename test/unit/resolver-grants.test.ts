// Which level-up makes a resolver: only the crossing into the unlock table's "resolving" level.
import { describe, expect, it } from "vitest";
import { levelRequiredFor } from "../../domain/unlocks.ts";
import { newResolver } from "../../api/reactors/resolver-grants.ts";

const A = "0x00000000000000000000000000000000000000aA";
const up = (previousLevel: number, level: number, user: string | undefined = A, account: string | null = null) =>
  newResolver({ payload: { user, previousLevel, level } as never, account });

describe("newResolver", () => {
  it("is the level of `resolving` (11)", () => expect(levelRequiredFor("resolving")).toBe(11));
  it("grants on the crossing, also when a jump skips levels", () => {
    expect(up(10, 11)).toBe(A.toLowerCase());
    expect(up(7, 14)).toBe(A.toLowerCase());
  });
  it("does not grant below it or after it (a revoked role stays revoked)", () => {
    expect(up(9, 10)).toBeNull();
    expect(up(11, 12)).toBeNull();
    expect(up(0, 1)).toBeNull();
  });
  it("falls back on the entry's account", () => expect(up(10, 11, undefined, A)).toBe(A.toLowerCase()));
});
