import { keccak256, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { canonicalJson, detailsHash, proofHash } from "../../api/lib/canonical-json.ts";

describe("canonicalJson", () => {
  it("sorts keys recursively and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined }, e: null })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1,"e":null}',
    );
  });
  it("is independent of key order", () => {
    expect(canonicalJson({ x: 1, y: "é" })).toBe(canonicalJson({ y: "é", x: 1 }));
  });
  it("rejects non-finite numbers", () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });
});

describe("detailsHash / proofHash", () => {
  const details = {
    title: "Deliver a parcel",
    description: "From A to B",
    category: "delivery",
    location: { latitude: 52.52, longitude: 13.405, radius: 100 },
    metadata: { size: "S" },
    salt: `0x${"11".repeat(32)}` as `0x${string}`,
  } as const;
  it("hashes the canonical JSON of exactly the six committed fields", () => {
    const expected = keccak256(
      stringToHex(
        '{"category":"delivery","description":"From A to B","location":{"latitude":52.52,"longitude":13.405,"radius":100},"metadata":{"size":"S"},"salt":"0x' +
          "11".repeat(32) +
          '","title":"Deliver a parcel"}',
      ),
    );
    expect(detailsHash(details)).toBe(expected);
  });
  it("changes with the salt", () => {
    expect(detailsHash({ ...details, salt: `0x${"22".repeat(32)}` })).not.toBe(detailsHash(details));
  });
  it("proof hash covers type, data and notes", () => {
    const p = { proofType: "url", proofData: "https://example.org/p.jpg", notes: "" };
    expect(proofHash(p)).toBe(keccak256(stringToHex(canonicalJson(p))));
    expect(proofHash({ ...p, notes: "x" })).not.toBe(proofHash(p));
  });
});
