// Hardening (issue 9): secure headers and a configurable CORS policy on every response, a CSP that
// keeps /docs (Swagger UI, local assets) and Ponder's GraphiQL working, and no secret in any log line:
// the API runs with known keys and JWT secret at debug level while signing in, writing and failing, and
// the captured output contains none of them, nor a JWT or the SIWE signature.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlCsp } from "../../api/middlewares/security.ts";
import { relayerAccount } from "../../api/services/relayer.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, startTestApi, type TestApi } from "./api-helpers.ts";

const hdKey = (i: number) => toHex(anvilAccount(i).getHdKey().privateKey!) as Hex;
const RELAYER_KEY = hdKey(0); // the deployment's relayer (chain 31337)
const SPONSOR_KEY = hdKey(17);
const JWT_SECRET = "hardening-test-jwt-secret-Zq9xW3vL8kP2mN7r";
const ORIGIN = "https://app.example.test";

let api: TestApi;
const captured: string[] = [];
const restore: (() => void)[] = [];

function capture(stream: NodeJS.WriteStream) {
  const original = stream.write.bind(stream);
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    captured.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof stream.write;
  restore.push(() => (stream.write = original));
}

beforeAll(async () => {
  capture(process.stdout);
  capture(process.stderr);
  api = await startTestApi({
    LOG_LEVEL: "debug",
    RELAYER_PRIVATE_KEY: RELAYER_KEY,
    SPONSOR_PRIVATE_KEY: SPONSOR_KEY,
    JWT_SECRET,
    INDEXER_WAIT_MS: "0",
    CORS_ORIGINS: `${ORIGIN}, http://localhost:5173`,
  });
});
afterAll(async () => {
  await api?.stop();
  for (const r of restore) r();
});

describe("secure headers and CORS", () => {
  it("every kind of response carries the secure headers", async () => {
    const responses = [
      await call(api.url, "GET", "/health"),
      await call(api.url, "GET", "/missions/not-a-mission"),
      await call(api.url, "GET", "/no/such/route"),
      await call(api.url, "POST", "/auth/message", { body: { address: "nope" } }),
      await call(api.url, "GET", "/users/me", { token: "x.y.z" }),
      await call(api.url, "GET", "/openapi.json"),
    ];
    for (const r of responses) {
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
      expect(r.headers.get("referrer-policy")).toBe("no-referrer");
      expect(r.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(r.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(r.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("CORS allows the configured origins only, incl. preflights and exposed rate-limit headers", async () => {
    const pre = await fetch(`${api.url}/missions`, {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,idempotency-key" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(pre.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();

    const get = await call(api.url, "GET", "/health", { headers: { Origin: "http://localhost:5173" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(get.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(get.headers.get("vary")).toContain("Origin");

    const evil = await call(api.url, "GET", "/health", { headers: { Origin: "https://evil.example" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const evilPre = await fetch(`${api.url}/missions`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
    expect(evilPre.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("/docs works under its CSP: local assets, the one inline script allowed by its hash, no unsafe-inline script", async () => {
    const res = await fetch(`${api.url}/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).not.toContain("unsafe-inline");
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBe(1);
    expect(scriptSrc).toContain(`'sha256-${createHash("sha256").update(inline[0]!).digest("base64")}'`);
    expect(scriptSrc).toContain("'self'");
    for (const m of html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)) {
      const asset = await fetch(`${api.url}${m[1]}`);
      expect(asset.status, m[1]).toBe(200);
      await asset.arrayBuffer();
    }
    const spec = await fetch(`${api.url}/openapi.json`);
    expect(spec.status).toBe(200); // connect-src 'self'
    expect(csp).toContain("connect-src 'self'");
  });

  it("/graphql's GraphiQL page (Ponder's, CDN assets) gets a CSP that allows exactly its sources", async () => {
    const mod = readFileSync(new URL("../../node_modules/ponder/dist/esm/graphql/graphiql.html.js", import.meta.url), "utf8");
    const csp = htmlCsp(mod);
    expect(csp).toContain("https://cdn.jsdelivr.net");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    // The GraphQL endpoint itself (no indexer here) answers in the envelope, with the headers.
    const g = await call(api.url, "POST", "/graphql", { body: { query: "{ __typename }" } });
    expect([200, 503]).toContain(g.status);
    expect(g.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("keys only from the environment", () => {
  it("no built-in relayer or sponsor key outside the local chain 31337", () => {
    expect(() => relayerAccount(undefined, 1)).toThrow(/RELAYER_PRIVATE_KEY is required/);
    expect(() => relayerAccount(undefined, 8453)).toThrow(/RELAYER_PRIVATE_KEY is required/);
    expect(relayerAccount(SPONSOR_KEY, 8453).address).toBe(anvilAccount(17).address);
    // The running API uses exactly the configured keys.
    expect(api.server.deps.relayer!.address.toLowerCase()).toBe(anvilAccount(0).address.toLowerCase());
  });
});

describe("no secret in a log", () => {
  it("sign-in, writes and errors at debug level leak no key, JWT secret, JWT or signature", async () => {
    const user = anvilAccount(5);
    const m = await call(api.url, "POST", "/auth/message", { body: { address: user.address } });
    expect(m.status).toBe(200);
    const signature = await user.signMessage({ message: m.body.message });
    const v = await call(api.url, "POST", "/auth/verify", { body: { address: user.address, signature } });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    const token = v.body.token as string;
    // A replayed signature (error path), a tampered and a garbage token.
    expect((await call(api.url, "POST", "/auth/verify", { body: { address: user.address, signature } })).status).toBeGreaterThanOrEqual(400);
    expect((await call(api.url, "GET", "/users/me", { token: token.slice(0, -3) + "AAA" })).status).toBe(401);
    // Writes: a relayed transaction (create), an off-chain write, and a relayer error (no balance for the reward).
    const created = await call(api.url, "POST", "/missions", {
      token,
      headers: { "Idempotency-Key": `hardening-${Date.now()}` },
      body: { title: "Log check", description: "secrets stay out of logs", rewardAmount: "1.5", category: "other", expiresIn: 3600 },
    });
    expect([201, 503]).toContain(created.status);
    expect((await call(api.url, "PATCH", "/vault/permissions", { token, body: { notifications: { email: true } } })).status).toBe(200);
    const broke = await call(api.url, "POST", "/missions", {
      token,
      body: { title: "Too big", description: "more than the balance", rewardAmount: "999999999", category: "other", expiresIn: 3600 },
    });
    expect(broke.status).toBeGreaterThanOrEqual(400);
    expect(broke.status).toBeLessThan(500);
    // A direct attempt to log secrets is redacted too (the second line of defence).
    api.server.deps.logger.warn("careless", { authorization: `Bearer ${token}`, note: `key ${RELAYER_KEY} sig ${signature}` });
    await new Promise((r) => setTimeout(r, 200));

    const out = captured.join("");
    expect(out).toContain('"msg":"request"'); // the capture works: access-log lines are there
    expect(out).toContain("careless");
    const forbidden = [
      RELAYER_KEY, RELAYER_KEY.slice(2), SPONSOR_KEY, SPONSOR_KEY.slice(2), JWT_SECRET, token,
      token.split(".")[2]!, signature, signature.slice(2),
    ];
    const lower = out.toLowerCase();
    for (const s of forbidden) expect(lower.includes(s.toLowerCase()), `leaked ${s.slice(0, 10)}…`).toBe(false);
    expect(out).not.toMatch(/eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/);
  });
});
