// SIWE sign-in, a tampered token of a real sign-in, /v2 and the system documents, and rate limits.
// The JWT checks and framework-level errors that need no database: test/http/errors.test.ts.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ RATE_LIMIT_USER_PER_MIN: "100001", RATE_LIMIT_PREMIUM_PER_MIN: "100002" });
});
afterAll(async () => {
  await api?.stop();
});

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
};

describe("SIWE sign-in", () => {
  it("issues an EIP-4361 message bound to address, domain, chain and a nonce, valid 5 minutes", async () => {
    const account = anvilAccount(1);
    const res = await call(api.url, "POST", "/auth/message", { body: { address: account.address.toLowerCase() } });
    expect(res.status).toBe(200);
    const msg: string = res.body.message;
    expect(msg).toContain(`wants you to sign in with your Ethereum account:\n${account.address}`);
    expect(msg).toMatch(/Chain ID: 31337/);
    expect(msg).toMatch(/Nonce: \w{8,}/);
    const issued = Date.parse(/Issued At: (\S+)/.exec(msg)![1]!);
    const expires = Date.parse(/Expiration Time: (\S+)/.exec(msg)![1]!);
    expect(expires - issued).toBe(5 * 60 * 1000);
  });

  it("creates the user on first sign-in and accepts the token", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const token = await signIn(api.url, account);
    expect(token.split(".")).toHaveLength(3);
    const users = api.server.deps.repos.users;
    const user = await users.findByAddress(account.address);
    expect(user).not.toBeNull();
    const vault = await api.server.deps.database.pool.query("SELECT 1 FROM api.vaults WHERE user_id = $1", [user!.id]);
    expect(vault.rowCount).toBe(1);
    // The token is accepted: the request is counted in the user tier, not the anonymous one.
    const res = await call(api.url, "GET", "/config", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("100001");
  });

  it("refuses a replayed signature (nonce single use)", async () => {
    const account = anvilAccount(2);
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const signature = await account.signMessage({ message: m.body.message });
    const first = await call(api.url, "POST", "/auth/verify", { body: { address: account.address, signature } });
    expect(first.status).toBe(200);
    const again = await call(api.url, "POST", "/auth/verify", { body: { address: account.address, signature } });
    expectError(again, 401, "UNAUTHORIZED");
  });

  it("50 parallel verifies of one signature yield exactly one token", async () => {
    const account = anvilAccount(3);
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const signature = await account.signMessage({ message: m.body.message });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call(api.url, "POST", "/auth/verify", { body: { address: account.address, signature } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expectError(r, 401, "UNAUTHORIZED");
  });

  it("refuses a signature by another wallet (wrong address)", async () => {
    const victim = anvilAccount(4);
    const attacker = anvilAccount(5);
    const m = await call(api.url, "POST", "/auth/message", { body: { address: victim.address } });
    const signature = await attacker.signMessage({ message: m.body.message });
    expectError(await call(api.url, "POST", "/auth/verify", { body: { address: victim.address, signature } }), 401, "UNAUTHORIZED");
  });

  it("refuses a message the server did not issue (own domain/nonce)", async () => {
    const account = anvilAccount(6);
    await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const forged = `evil.example wants you to sign in with your Ethereum account:\n${account.address}\n\nURI: https://evil.example\nVersion: 1\nChain ID: 31337\nNonce: abcdefgh12345678\nIssued At: ${new Date().toISOString()}`;
    const signature = await account.signMessage({ message: forged });
    expectError(await call(api.url, "POST", "/auth/verify", { body: { address: account.address, signature } }), 401, "UNAUTHORIZED");
  });

  it("refuses verify without any issued message, and malformed input with 400", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signature = await account.signMessage({ message: "hello" });
    expectError(await call(api.url, "POST", "/auth/verify", { body: { address: account.address, signature } }), 401, "UNAUTHORIZED");
    const bad = await call(api.url, "POST", "/auth/verify", { body: { address: "0x1234", signature: "zz" } });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(["body.address", "body.signature"]);
  });
});

describe("expired sign-in message", () => {
  it("is refused after its expiration time", async () => {
    const short = await startTestApi({ AUTH_NONCE_TTL_SECONDS: "1" });
    try {
      const account = anvilAccount(7);
      const m = await call(short.url, "POST", "/auth/message", { body: { address: account.address } });
      const signature = await account.signMessage({ message: m.body.message });
      await new Promise((r) => setTimeout(r, 1_500));
      expectError(await call(short.url, "POST", "/auth/verify", { body: { address: account.address, signature } }), 401, "UNAUTHORIZED");
    } finally {
      await short.stop();
    }
  });
});

describe("JWT", () => {
  const protectedCall = (token: string) => call(api.url, "POST", "/missions/x/cancel", { token });

  it("rejects a tampered token", async () => {
    const token = await signIn(api.url, anvilAccount(8));
    const [h, p, s] = token.split(".");
    const payload = JSON.parse(Buffer.from(p!, "base64url").toString());
    payload.sub = "00000000-0000-4000-8000-000000000000";
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${s}`;
    expectError(await protectedCall(tampered), 401, "UNAUTHORIZED");
  });
});

describe("error envelope", () => {
  it("every route also answers under /v2, and responses carry a request id", async () => {
    const res = await call(api.url, "POST", "/v2/auth/message", { body: { address: anvilAccount(1).address } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });

  it("serves /config, /openapi.json (3.1), /docs and /metrics", async () => {
    const cfg = await call(api.url, "GET", "/config");
    expect(cfg.status).toBe(200);
    expect(cfg.body.chainId).toBe(31337);
    expect(cfg.body.contracts.MissionEscrow).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const doc = await call(api.url, "GET", "/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/missions", "/missions/{id}/accept", "/auth/verify"]));
    const docs = await fetch(`${api.url}/docs`);
    expect(await docs.text()).toContain("/docs/assets/swagger-ui-bundle.js");
    expect((await fetch(`${api.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    const metrics = await fetch(`${api.url}/metrics`);
    expect(await metrics.text()).toContain("http_requests_total");
  });
});

describe("rate limits", () => {
  it("limits anonymous clients by IP with headers and 429 RATE_LIMITED", async () => {
    const limited = await startTestApi({ RATE_LIMIT_ANON_PER_MIN: "5", RATE_LIMIT_USER_PER_MIN: "8" });
    try {
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 7; i++) {
        last = await call(limited.url, "GET", "/config");
        statuses.push(last.status);
        expect(Number(last.headers.get("x-ratelimit-limit"))).toBe(5);
        expect(Number(last.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
        expect(Number(last.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(60);
      }
      // The window may roll over during the loop: at least the 6th or 7th call is refused.
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      expectError(last!, 429, "RATE_LIMITED");
      expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    } finally {
      await limited.stop();
    }
  });

  it("premium users (users.premium, set by an operator) get the premium tier", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const token = await signIn(api.url, account);
    const users = api.server.deps.repos.users;
    expect((await call(api.url, "GET", "/config", { token })).headers.get("x-ratelimit-limit")).toBe("100001");
    await users.setPremium((await users.findByAddress(account.address))!.id, true);
    expect((await call(api.url, "GET", "/config", { token })).headers.get("x-ratelimit-limit")).toBe("100002");
  });

  it("a shared Postgres store makes two API copies share one limit", async () => {
    const a = await startTestApi({ RATE_LIMIT_STORE: "postgres", RATE_LIMIT_ANON_PER_MIN: "4" });
    const b = await startTestApi({ RATE_LIMIT_STORE: "postgres", RATE_LIMIT_ANON_PER_MIN: "4" });
    try {
      await a.server.deps.database.pool.query("DELETE FROM api.rate_limit_buckets");
      // Windows are aligned to the clock minute: six requests split across a boundary (say 3 + 3) stay
      // under 4 in each window, so start them with the window far from its end (a loaded machine made
      // this test fail once with no 429 at all).
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 20_000) await new Promise((r) => setTimeout(r, left + 200));
      const results = [];
      for (let i = 0; i < 3; i++) {
        results.push((await call(a.url, "GET", "/config")).status, (await call(b.url, "GET", "/config")).status);
      }
      expect(results.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
