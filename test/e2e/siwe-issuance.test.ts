// Sign-in cannot be blocked by someone else's requests: every unexpired, unused message the server
// issued verifies once, however many were issued after it; issuance is limited per address and
// client (429 RATE_LIMITED + Retry-After), and live messages per address are capped. Clients are
// told apart by X-Forwarded-For (TRUST_PROXY), as behind the proxy of a real deployment.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApi, type TestApi } from "./api-helpers.ts";

let api: TestApi;
const PER_MIN = 5;
const LIVE_MAX = 30;

beforeAll(async () => {
  api = await startTestApi({ AUTH_MESSAGES_PER_MIN: String(PER_MIN), AUTH_LIVE_MESSAGES_MAX: String(LIVE_MAX), TRUST_PROXY: "true" });
});
afterAll(async () => {
  await api?.stop();
});

const requestFrom = (ip: string, address: string) =>
  call(api.url, "POST", "/auth/message", { body: { address }, headers: { "X-Forwarded-For": ip } });
const verifyFrom = (ip: string, address: string, signature: string) =>
  call(api.url, "POST", "/auth/verify", { body: { address, signature }, headers: { "X-Forwarded-For": ip } });

const expectLimited = (res: { status: number; body: any; headers: Headers }, maxWait: number) => {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body.error.code).toBe("RATE_LIMITED");
  const wait = Number(res.headers.get("Retry-After"));
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(maxWait);
};

describe("sign-in messages under a flood", () => {
  it("the victim's message verifies after an attacker requested many more for the address; the attacker is throttled", async () => {
    const victim = privateKeyToAccount(generatePrivateKey());
    const home = "198.51.100.7";
    const first = await requestFrom(home, victim.address);
    expect(first.status).toBe(200);

    // One attacking client: its quota for this address, then 429 with the window's remaining seconds.
    for (let i = 0; i < PER_MIN; i++) expect((await requestFrom("203.0.113.1", victim.address)).status).toBe(200);
    expectLimited(await requestFrom("203.0.113.1", victim.address), 60);
    // The attacker's quota is not the owner's.
    const second = await requestFrom(home, victim.address);
    expect(second.status).toBe(200);

    // More attacking clients, until the address's live messages reach the cap.
    let live = 2 + PER_MIN;
    for (let ip = 2; live < LIVE_MAX; ip++) {
      for (let i = 0; i < PER_MIN && live < LIVE_MAX; i++, live++) {
        expect((await requestFrom(`203.0.113.${ip}`, victim.address)).status).toBe(200);
      }
    }
    const capped = await requestFrom("203.0.113.200", victim.address);
    expectLimited(capped, 300);
    expect(capped.body.error.message).toMatch(/unused sign-in messages/);

    // The oldest of 30 live messages, 28 issued after it: verifies once, and the second one too.
    const t0 = performance.now();
    const ok = await verifyFrom(home, victim.address, await victim.signMessage({ message: first.body.message }));
    const verifyMs = performance.now() - t0;
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(typeof ok.body.token).toBe("string");
    expect((await verifyFrom(home, victim.address, await victim.signMessage({ message: first.body.message }))).status).toBe(401);
    expect((await verifyFrom(home, victim.address, await victim.signMessage({ message: second.body.message }))).status).toBe(200);

    // A signature over none of them is refused after trying every candidate (bounded by the cap).
    const stranger = privateKeyToAccount(generatePrivateKey());
    const t1 = performance.now();
    const refused = await verifyFrom("203.0.113.1", victim.address, await stranger.signMessage({ message: first.body.message }));
    const missMs = performance.now() - t1;
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
    console.log(`siwe: verify of the oldest of ${LIVE_MAX} live messages ${verifyMs.toFixed(0)} ms; a miss over ${LIVE_MAX - 2} ${missMs.toFixed(0)} ms`);
  });

  it("a refused request stores nothing, and the limits are per address: another address is served", async () => {
    const victim = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    const ip = "192.0.2.44";
    for (let i = 0; i < PER_MIN; i++) expect((await requestFrom(ip, victim.address)).status).toBe(200);
    expectLimited(await requestFrom(ip, victim.address), 60);
    expect((await requestFrom(ip, other.address)).status).toBe(200);
    const db = api.server.deps.database.pool;
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM api.auth_nonces WHERE address = $1`, [victim.address.toLowerCase()]);
    expect(rows[0].n).toBe(PER_MIN);
  });
});
