// Hardening that needs the running stack: keys only from the environment, and no secret in any log
// line (secure headers, CORS and the CSPs need no chain: test/http/hardening.test.ts). The API runs
// with known keys and JWT secret at debug level while signing in, writing and failing, and the
// captured output contains none of them, nor a JWT or the SIWE signature.
import { toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relayerAccount } from "../../api/services/relayer/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, startTestApi, type TestApi } from "./api-helpers.ts";

const hdKey = (i: number) => toHex(anvilAccount(i).getHdKey().privateKey!) as Hex;
const RELAYER_KEY = hdKey(0); // the deployment's relayer (chain 31337)
const SPONSOR_KEY = hdKey(17);
const JWT_SECRET = "hardening-test-jwt-secret-Zq9xW3vL8kP2mN7r";

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
  });
});
afterAll(async () => {
  await api?.stop();
  for (const r of restore) r();
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
