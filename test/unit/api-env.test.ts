import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../api/env.ts";

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
  it("requires JWT_SECRET in production", () => {
    expect(() => parseEnv({ ...ok, NODE_ENV: "production" })).toThrow(/JWT_SECRET/);
    expect(parseEnv({ ...ok, NODE_ENV: "production", JWT_SECRET: "x".repeat(32) }).JWT_SECRET).toHaveLength(32);
  });
});
