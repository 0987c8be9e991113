// Rate limits: for each tier of the spec (anonymous 30, user 300, premium 1000 per minute),
// limit + 1 concurrent requests give exactly one 429 — on one API copy (memory store) and spread over
// two copies sharing the PostgreSQL store — and every response (successes, errors, the 429) carries
// X-RateLimit-Limit / -Remaining / -Reset as numbers (docs/decisions.md "Rate limits").
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signIn, startTestApi, type Res, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

const TIERS = { anonymous: 30, user: 300, premium: 1000 } as const;
type Tier = keyof typeof TIERS;
type Tiers = Record<Tier, number>;
/** The two shared-store copies run smaller limits (same code path per tier) so the test fits a window on 2 cores. */
const SHARED: Tiers = { anonymous: 30, user: 60, premium: 100 };
const LIMITS = {
  RATE_LIMIT_ANON_PER_MIN: String(TIERS.anonymous),
  RATE_LIMIT_USER_PER_MIN: String(TIERS.user),
  RATE_LIMIT_PREMIUM_PER_MIN: String(TIERS.premium),
  TRUST_PROXY: "true", // each scenario is its own "client IP" via X-Forwarded-For
  REACTORS_ENABLED: "false",
  KEEPER_INTERVAL_MS: "0",
};

let setup: TestApi, memory: TestApi, sharedA: TestApi, sharedB: TestApi;
let db: pg.Client;
const tokens: Record<string, string> = {};

function expectHeaders(r: Res, limit: number) {
  const l = r.headers.get("x-ratelimit-limit"), rem = r.headers.get("x-ratelimit-remaining"), reset = r.headers.get("x-ratelimit-reset");
  expect(l, `X-RateLimit-Limit on ${r.status}`).toBe(String(limit));
  expect(rem, `X-RateLimit-Remaining on ${r.status}`).toMatch(/^\d+$/);
  expect(Number(rem)).toBeLessThanOrEqual(limit);
  expect(reset, `X-RateLimit-Reset on ${r.status}`).toMatch(/^\d+$/);
  expect(Number(reset)).toBeGreaterThanOrEqual(1);
  expect(Number(reset)).toBeLessThanOrEqual(60);
}

/** Waits until the current clock-minute window has at least `ms` left, so a burst stays inside one window. */
async function ensureWindow(ms: number) {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((r) => setTimeout(r, left + 250));
}

/** limit + 1 requests of one client (a token, or an IP), round-robin over `copies`, in concurrent waves. */
async function burst(copies: TestApi[], tier: Tier, client: { token?: string; ip: string }, tiers: Tiers = TIERS) {
  const limit = tiers[tier];
  // Mostly cheap 404s (the limiter runs before routing; the token is still verified and its user loaded),
  // every fourth request a real route.
  const real = tier === "anonymous" ? "/v2/no/such/route" : "/notifications/unread-count";
  const paths = [real, "/no/such/route", "/missing", "/x"];
  const results: Res[] = [];
  const n = limit + 1;
  const WAVE = 50;
  for (let start = 0; start < n; start += WAVE) {
    const wave = [];
    for (let i = start; i < Math.min(n, start + WAVE); i++) {
      const base = copies[i % copies.length]!.url;
      wave.push(call(base, "GET", paths[i % paths.length]!, { token: client.token, headers: { "X-Forwarded-For": client.ip } }));
    }
    results.push(...(await Promise.all(wave)));
  }
  return results;
}

function check(results: Res[], tier: Tier, tiers: Tiers = TIERS) {
  const limit = tiers[tier];
  const limited = results.filter((r) => r.status === 429);
  const other = results.filter((r) => r.status !== 429);
  expect(results.length).toBe(limit + 1);
  expect(limited.length, `${tier}: 429s among ${limit + 1}`).toBe(1);
  for (const r of other) expect([200, 404], JSON.stringify(r.body).slice(0, 200)).toContain(r.status);
  for (const r of results) expectHeaders(r, limit);
  const r429 = limited[0]!;
  expect(r429.body.error.code).toBe("RATE_LIMITED");
  expect(r429.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(r429.headers.get("retry-after")).toMatch(/^\d+$/);
  // Remaining counts down: the allowed responses carry each value limit-1 .. 0 exactly once.
  const remaining = other.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => i));
}

async function newUser(tier: Exclude<Tier, "anonymous">) {
  const account = privateKeyToAccount(generatePrivateKey());
  const token = await signIn(setup.url, account);
  if (tier === "premium") {
    // premium is an operator's SQL flag, never something a user can set (decisions: Rate limits)
    const r = await db.query("UPDATE api.users SET premium = true WHERE evm_address = $1", [account.address.toLowerCase()]);
    expect(r.rowCount).toBe(1);
  }
  return token;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject("databaseUrl") });
  await db.connect();
  // The set-up copy (generous limits) signs users in, so sign-ins eat no tested budget.
  setup = await startTestApi({ REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0" });
  const shared = {
    ...LIMITS,
    RATE_LIMIT_STORE: "postgres",
    RATE_LIMIT_USER_PER_MIN: String(SHARED.user),
    RATE_LIMIT_PREMIUM_PER_MIN: String(SHARED.premium),
  };
  [memory, sharedA, sharedB] = await Promise.all([
    startTestApi({ ...LIMITS, RATE_LIMIT_STORE: "memory" }),
    startTestApi(shared),
    startTestApi(shared),
  ]);
  for (const k of ["mem-user", "pg-user"]) tokens[k] = await newUser("user");
  for (const k of ["mem-premium", "pg-premium"]) tokens[k] = await newUser("premium");
}, 60_000);
afterAll(async () => {
  await Promise.all([setup?.stop(), memory?.stop(), sharedA?.stop(), sharedB?.stop()]);
  await db?.end();
});

/**
 * Runs `bursts` inside one clock-minute window: the windows are clock minutes, so a burst must not
 * straddle two. The time it needs is estimated from a warm-up on this (noisy, shared) machine; if it
 * straddled one anyway, it runs again inside the next window with fresh counters — never a looser count.
 */
async function inOneWindow<T>(requests: number, copies: TestApi[], bursts: () => Promise<T>): Promise<T> {
  const t = Date.now();
  await Promise.all(Array.from({ length: 40 }, (_, i) => call(copies[i % copies.length]!.url, "GET", "/health")));
  const perRequestMs = (Date.now() - t) / 40;
  const needMs = Math.min(58_000, Math.max(5_000, requests * perRequestMs * 1.5));
  for (let attempt = 0; attempt < 2; attempt++) {
    await ensureWindow(needMs);
    const w0 = Math.floor(Date.now() / 60_000);
    const started = Date.now();
    const r = await bursts();
    console.log(`rate-limits: ${requests} requests in ${Date.now() - started} ms (estimated ${Math.round(needMs)} ms)`);
    if (Math.floor(Date.now() / 60_000) === w0) return r;
  }
  throw new Error("the bursts never fit in one rate-limit window");
}

describe("rate limits", () => {
  it("one copy (memory store), the spec's tiers 30 / 300 / 1000: limit + 1 requests give exactly one 429 per tier", async () => {
    const [anon, user, premium] = await inOneWindow(TIERS.anonymous + TIERS.user + TIERS.premium + 3, [memory], () =>
      Promise.all([
        burst([memory], "anonymous", { ip: "198.51.100.1" }),
        burst([memory], "user", { token: tokens["mem-user"], ip: "198.51.100.2" }),
        burst([memory], "premium", { token: tokens["mem-premium"], ip: "198.51.100.3" }),
      ]),
    );
    check(anon, "anonymous");
    check(user, "user");
    check(premium, "premium");
  }, 115_000);

  it("two copies sharing the PostgreSQL store: exactly one 429 per tier across both", async () => {
    const both = [sharedA, sharedB];
    const [anon, user, premium] = await inOneWindow(SHARED.anonymous + SHARED.user + SHARED.premium + 3, both, () =>
      Promise.all([
        burst(both, "anonymous", { ip: "198.51.100.11" }, SHARED),
        burst(both, "user", { token: tokens["pg-user"], ip: "198.51.100.12" }, SHARED),
        burst(both, "premium", { token: tokens["pg-premium"], ip: "198.51.100.13" }, SHARED),
      ]),
    );
    check(anon, "anonymous", SHARED);
    check(user, "user", SHARED);
    check(premium, "premium", SHARED);
    // Requests alternate between the copies (round-robin); the shared bucket counted them all: limit + 1.
    const { rows } = await db.query("SELECT key, count FROM api.rate_limit_buckets WHERE key = 'ip:198.51.100.11'");
    expect(Number(rows[0].count)).toBe(SHARED.anonymous + 1);
  }, 115_000);

  it("the headers are on every kind of response: 400, 401, 404, 405, 413, 415, 429, exempt /health", async () => {
    const ip = { "X-Forwarded-For": "198.51.100.21" };
    const u = memory.url;
    const responses = [
      await call(u, "POST", "/auth/message", { headers: ip, body: { address: "not-an-address" } }), // 400
      await call(u, "GET", "/users/me", { headers: ip, token: "a.b.c" }), // 401
      await call(u, "GET", "/users/me", { headers: ip }), // 401 (no token)
      await call(u, "GET", "/nothing/here", { headers: ip }), // 404
      await call(u, "DELETE", "/auth/message", { headers: ip }), // 405
      await call(u, "POST", "/auth/message", { headers: ip, raw: JSON.stringify({ address: "x".repeat(70_000) }), body: undefined, ...{} }), // 415 (no content type) or 413
      await call(u, "POST", "/auth/message", { headers: { ...ip, "Content-Type": "application/json" }, raw: JSON.stringify({ a: "x".repeat(70_000) }) }), // 413
      await call(u, "POST", "/auth/message", { headers: { ...ip, "Content-Type": "text/plain" }, raw: "hi" }), // 415
      await call(u, "GET", "/health", { headers: ip }),
    ];
    const statuses = responses.map((r) => r.status);
    for (const s of [400, 401, 404, 405, 413, 415]) expect(statuses, `a ${s} among ${statuses}`).toContain(s);
    for (const r of responses) expectHeaders(r, TIERS.anonymous);
    for (const r of responses) expect(r.status).not.toBe(500);
  });
});
