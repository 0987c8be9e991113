import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { encodeAbiParameters, keccak256 } from "viem";
import { disputeMoney, disputeUuid, guildUuid, missionIdPreimage, missionUuid, uuidFromHash } from "../../domain/index.ts";
import { journalKey, parseJournalKey, toJsonPayload } from "../../indexer/lib/journal.ts";

const escrow = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("ids", () => {
  it("derives a v8 UUID from the first 16 bytes of keccak256(abi.encode(chainId, escrow, onChainId))", () => {
    const id = missionUuid(31337, escrow, 1n);
    expect(id).toMatch(UUID);
    const hash = keccak256(
      encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }], [31337n, escrow, 1n]),
    );
    expect(id.replace(/-/g, "").slice(0, 12)).toBe(hash.slice(2, 14));
    expect(id.replace(/-/g, "").slice(13, 16)).toBe(hash.slice(15, 18));
    expect(missionUuid(31337, escrow.toLowerCase() as `0x${string}`, 1n)).toBe(id);
    expect(missionUuid(31337, escrow, 2n)).not.toBe(id);
    expect(missionUuid(1, escrow, 1n)).not.toBe(id);
  });
  it("writes the mission id's preimage as abi.encode does, and refuses what the encoder refuses", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.uint8Array({ minLength: 20, maxLength: 20 }), (chainId, onChainId, a) => {
        const address = `0x${Buffer.from(a).toString("hex")}` as `0x${string}`;
        expect(missionIdPreimage(chainId, address, onChainId)).toBe(
          encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }], [chainId, address, onChainId]),
        );
      }),
    );
    expect(missionIdPreimage(31337n, escrow, 1n)).toBe(
      encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }], [31337n, escrow, 1n]),
    );
    expect(() => missionIdPreimage(1n, "0x1234", 1n)).toThrow();
    expect(() => missionIdPreimage(-1n, escrow, 1n)).toThrow();
    expect(() => missionIdPreimage(1n, escrow, 2n ** 256n)).toThrow();
  });
  it("keeps kinds apart", () => {
    expect(disputeUuid(31337, escrow, 1n)).toMatch(UUID);
    expect(disputeUuid(31337, escrow, 1n)).not.toBe(guildUuid(31337, escrow, 1n));
    expect(uuidFromHash(`0x${"ff".repeat(32)}`)).toBe("ffffffff-ffff-8fff-bfff-ffffffffffff");
  });
});

describe("journal keys", () => {
  it("sort in chain order and round-trip", () => {
    const a = journalKey(10n, 999_999, 999);
    const b = journalKey(11n, 0, 0);
    expect(a < b).toBe(true);
    expect(journalKey(10n, 3, 1) < journalKey(10n, 3, 2)).toBe(true);
    expect(journalKey(10n, 3, 999) < journalKey(10n, 4, 0)).toBe(true);
    expect(parseJournalKey(journalKey(123n, 45, 6))).toEqual({ blockNumber: 123n, logIndex: 45, seq: 6 });
    expect(() => journalKey(1n, 0, 1000)).toThrow();
  });
  it("payloads carry bigints as strings and addresses lowercase", () => {
    expect(toJsonPayload({ a: 1n, who: escrow, nested: { h: `0x${"AB".repeat(32)}` } })).toEqual({
      a: "1",
      who: escrow.toLowerCase(),
      nested: { h: `0x${"AB".repeat(32)}` },
    });
  });
});

describe("disputeMoney", () => {
  const base = { reward: 100n, poster: "0xa", performer: "0xb", ddrAmount: 5n, lppAmount: 5n };
  it("does not count deposits paid back as earnings", () => {
    // performer initiated and won: gets 90 net + own DDR back
    expect(
      disputeMoney({ ...base, initiator: "0xb", appellant: null, posterAmount: 0n, performerAmount: 95n }),
    ).toEqual({ earned: 90n, spent: 100n });
    // poster initiated and won: poster gets 98 net (2 went to the resolver) + own DDR
    expect(
      disputeMoney({ ...base, initiator: "0xa", appellant: null, posterAmount: 103n, performerAmount: 0n }),
    ).toEqual({ earned: 0n, spent: 2n });
  });
});

describe("toJsonPayload without the JSON round trip", () => {
  const roundTrip = (v: unknown) =>
    JSON.parse(
      JSON.stringify(v, (_k, x) =>
        typeof x === "bigint" ? x.toString() : typeof x === "string" && /^0x[0-9a-fA-F]{40}$/.test(x) ? x.toLowerCase() : x,
      ) ?? "null",
    );
  const leaf = fc.oneof(
    fc.bigInt(),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constantFrom(escrow, escrow.toLowerCase(), `0x${"Ab".repeat(32)}`),
  );
  const tree = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("node")), fc.dictionary(fc.string(), tie("node"))),
  })).node;

  it("equals JSON.parse(JSON.stringify(value, bigint/address replacer)) for any payload object", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), tree), (payload) => {
        expect(toJsonPayload(payload)).toEqual(roundTrip(payload));
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a \"__proto__\" key as a key, as JSON.parse does (found by the property above)", () => {
    const payload = JSON.parse('{"__proto__": {"a": 1n}, "b": 2}'.replace("1n", "1"));
    const out = toJsonPayload(payload) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(["__proto__", "b"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out).toEqual(roundTrip(payload));
  });

  it("memoises mission ids without changing them", () => {
    const a = missionUuid(31337, escrow, 77n);
    expect(missionUuid(31337, escrow, 77n)).toBe(a);
    const direct = uuidFromHash(
      keccak256(
        encodeAbiParameters([{ type: "uint256" }, { type: "address" }, { type: "uint256" }], [31337n, escrow, 77n]),
      ),
    );
    expect(a).toBe(direct);
  });
});
