// The chain's enums are declared once in Solidity (contracts/types/DataTypes.sol) and mirrored once in
// TypeScript (domain/states.ts), where a uint8 of the chain indexes the list. This reads the Solidity
// source itself: every enum of DataTypes.sol must have its list, with the same names in the same
// order, and the codes the API sends (OUTCOME_CODE, the keeper's window and states) are those indexes.
// The guild role bits (domain/roles.ts) are checked against the Guilds library's constants too.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  codes, DECIDED_OUTCOMES, DISPUTE_OUTCOME_CODE, DISPUTE_OUTCOMES, DISPUTE_STATES, disputeOutcome, disputeState, ESCROW_WINDOW_CODE,
  ESCROW_WINDOWS, MISSION_STATE_CODE, MISSION_STATES, missionState, RAISED_DISPUTE_STATES, ROLE_ADMIN, ROLE_CURATOR, ROLE_OFFICER,
} from "../../domain/index.ts";

const source = fs.readFileSync(path.resolve(import.meta.dirname, "../../contracts/types/DataTypes.sol"), "utf8");
/** The source without comments (a comment may name a state, as `/// @dev ... Open ...` does). */
const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");

/** Each `library L { ... }` body of the file, by name (the libraries hold no nested braces but structs' and enums'). */
function libraries(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/\blibrary\s+(\w+)\s*\{/g)) {
    let depth = 1, i = m.index! + m[0].length;
    const start = i;
    for (; depth > 0 && i < text.length; i++) depth += text[i] === "{" ? 1 : text[i] === "}" ? -1 : 0;
    out.set(m[1]!, text.slice(start, i - 1));
  }
  return out;
}

/** Every enum of the file as "Library.Enum" -> its member names in declaration order. */
function solidityEnums(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [lib, body] of libraries(code)) {
    for (const m of body.matchAll(/\benum\s+(\w+)\s*\{([^}]*)\}/g)) {
      out.set(`${lib}.${m[1]}`, m[2]!.split(",").map((s) => s.trim()).filter(Boolean));
    }
  }
  return out;
}

/** The TypeScript list that mirrors each Solidity enum. */
const MIRRORS: Record<string, readonly string[]> = {
  "Missions.State": MISSION_STATES,
  "Missions.Window": ESCROW_WINDOWS,
  "Disputes.State": DISPUTE_STATES,
  "Disputes.Outcome": DISPUTE_OUTCOMES,
};

describe("domain/states.ts mirrors contracts/types/DataTypes.sol", () => {
  const enums = solidityEnums();

  it("reads the four enums of the file", () => {
    expect([...enums.keys()].sort()).toEqual(Object.keys(MIRRORS).sort());
    expect(enums.get("Missions.State")).toHaveLength(7);
  });

  for (const [name, list] of Object.entries(MIRRORS)) {
    it(`${name}: the same names in the declaration order (index = the chain's uint8)`, () => {
      expect([...list]).toEqual(enums.get(name));
    });
  }

  it("decodes each uint8 to its name and codes each name to its uint8", () => {
    for (const [i, s] of MISSION_STATES.entries()) {
      expect(missionState(i)).toBe(s);
      expect(MISSION_STATE_CODE[s]).toBe(i);
    }
    for (const [i, s] of DISPUTE_STATES.entries()) expect(disputeState(i)).toBe(s);
    for (const [i, o] of DISPUTE_OUTCOMES.entries()) {
      expect(disputeOutcome(i)).toBe(o);
      expect(DISPUTE_OUTCOME_CODE[o]).toBe(i);
    }
    for (const [i, w] of ESCROW_WINDOWS.entries()) expect(ESCROW_WINDOW_CODE[w]).toBe(i);
    // What resolveDispute / decideAppeal are sent (disputes.service.ts OUTCOME_CODE is DISPUTE_OUTCOME_CODE).
    expect(DECIDED_OUTCOMES.map((o) => DISPUTE_OUTCOME_CODE[o])).toEqual([1, 2, 3, 4]);
    expect(ESCROW_WINDOW_CODE.DisputeTimeout).toBe(enums.get("Missions.Window")!.indexOf("DisputeTimeout"));
    expect(Object.keys(codes(["A", "B"] as const))).toEqual(["A", "B"]);
  });

  it("drops only the zero value from the lists the API accepts", () => {
    expect(RAISED_DISPUTE_STATES).toEqual(DISPUTE_STATES.slice(1));
    expect(DECIDED_OUTCOMES).toEqual(DISPUTE_OUTCOMES.slice(1));
    expect(enums.get("Disputes.State")![0]).toBe("None");
    expect(enums.get("Disputes.Outcome")![0]).toBe("None");
  });

  it("guild role bits: the Guilds library's constants", () => {
    const guilds = libraries(code).get("Guilds")!;
    const roles = Object.fromEntries([...guilds.matchAll(/\bconstant\s+(ROLE_\w+)\s*=\s*(\d+)\s*;/g)].map((m) => [m[1]!, Number(m[2])]));
    expect(roles).toEqual({ ROLE_CURATOR, ROLE_OFFICER, ROLE_ADMIN });
  });
});
