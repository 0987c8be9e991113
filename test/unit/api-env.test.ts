import { describe, expect, it } from "vitest";
import { DEFAULT_KEEPER_INTERVAL_MS, EnvError, keeperIntervalMs, parseEnv, relayerKeys } from "../../api/env.ts";

describe("parseEnv", () => {
  const ok = { DATABASE_URL: "postgres://u@h/db" };
  it("applies defaults", () => {
    const env = parseEnv(ok);
    expect(env).toMatchObject({ PORT: 3000, RATE_LIMIT_STORE: "memory", RATE_LIMIT_ANON_PER_MIN: 30, INDEXER_WAIT_MS: 5000 });
  });
  it("names the bad variable", () => {
    expect(() => parseEnv({ ...ok, PORT: "abc" })).toThrow(/PORT/);
    expect(() => parseEnv({})).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ...ok, RELAYER_PRIVATE_KEY: "0x12" })).toThrow(/RELAYER_PRIVATE_KEY/);
    expect(() => parseEnv({ ...ok, RATE_LIMIT_STORE: "redis" })).toThrow(EnvError);
  });
  it("takes the keeper interval from KEEPER_INTERVAL_MS only (the former disputes-only name is gone)", () => {
    expect(keeperIntervalMs(parseEnv(ok))).toBe(DEFAULT_KEEPER_INTERVAL_MS);
    expect(keeperIntervalMs(parseEnv({ ...ok, KEEPER_INTERVAL_MS: "0" }))).toBe(0);
    expect(keeperIntervalMs(parseEnv({ ...ok, DISPUTE_KEEPER_INTERVAL_MS: "0" }))).toBe(DEFAULT_KEEPER_INTERVAL_MS);
  });
  it("requires JWT_SECRET in production", () => {
    expect(() => parseEnv({ ...ok, NODE_ENV: "production" })).toThrow(/JWT_SECRET/);
    expect(parseEnv({ ...ok, NODE_ENV: "production", JWT_SECRET: "x".repeat(32) }).JWT_SECRET).toHaveLength(32);
  });
  it("reads the relayer key pool (RELAYER_PRIVATE_KEYS), RELAYER_PRIVATE_KEY as a one-key pool, and names a bad list", () => {
    const a = `0x${"a".repeat(64)}`;
    const b = `0x${"b".repeat(64)}`;
    expect(relayerKeys(parseEnv(ok))).toEqual([]);
    expect(relayerKeys(parseEnv({ ...ok, RELAYER_PRIVATE_KEY: a }))).toEqual([a]);
    expect(relayerKeys(parseEnv({ ...ok, RELAYER_PRIVATE_KEYS: ` ${a}, ${b} ` }))).toEqual([a, b]);
    expect(relayerKeys(parseEnv({ ...ok, RELAYER_PRIVATE_KEYS: `${a},${b}`, RELAYER_PRIVATE_KEY: a }))).toEqual([a, b]);
    const bad = (over: Record<string, string>) => {
      try {
        parseEnv({ ...ok, ...over });
      } catch (err) {
        return err as EnvError;
      }
      throw new Error("accepted");
    };
    const notHex = bad({ RELAYER_PRIVATE_KEYS: `${a},0x12` });
    expect(notHex.issues).toEqual([{ variable: "RELAYER_PRIVATE_KEYS", reason: "must be a comma-separated list of 0x-prefixed 32-byte hex keys" }]);
    expect(notHex.message).not.toContain(a); // a key is never echoed
    expect(bad({ RELAYER_PRIVATE_KEYS: "," }).issues[0]!.variable).toBe("RELAYER_PRIVATE_KEYS");
    expect(bad({ RELAYER_PRIVATE_KEYS: `${a},${a.toUpperCase().replace("0X", "0x")}` }).issues[0]!.reason).toMatch(/twice/);
    expect(bad({ RELAYER_PRIVATE_KEYS: `${a},${b}`, RELAYER_PRIVATE_KEY: b }).issues[0]!.variable).toBe("RELAYER_PRIVATE_KEY");
  });
});
