// Web Push over the real stack: endpoints a user registers cannot reach private addresses, a user's
// devices are capped, and a user's silent push endpoints never hold up anyone else's notification,
// push or webhook. The push service is a local node:http server; the payload is decrypted with
// `http_ece` (web-push's own dependency), not the project's code.
import http from "node:http";
import crypto from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import webpush from "web-push";
import { createServer } from "../../api/app.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: crypto.ECDH; authSecret: Buffer }): Buffer;
};

interface Hit { path: string; at: number; body: Buffer }

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;
const servers: http.Server[] = [];
const silentHits: Hit[] = [];
const pushHits: Hit[] = [];
const hookHits: Hit[] = [];
let silentBase: string;
let pushBase: string;
let hookBase: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; ${await snapshot()}`);
    await sleep(25);
  }
}
async function snapshot(): Promise<string> {
  const q = async (sql: string) => (await pool.query(sql).catch((e: Error) => ({ rows: [{ error: e.message }] }))).rows;
  return JSON.stringify({
    cursors: await q("SELECT reactor, last_id::text FROM api.reactor_cursors"),
    pushes: await q("SELECT status, attempts, error FROM api.push_deliveries ORDER BY created_at DESC LIMIT 20"),
    hits: { silent: silentHits.length, push: pushHits.length, hooks: hookHits.length },
  });
}
const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
/** A local HTTP server recording each request; `answer` false: it reads the request and never answers. */
async function receiver(hits: Hit[], answer: (path: string) => number | false): Promise<string> {
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ path: req.url ?? "/", at: performance.now(), body: Buffer.concat(chunks) });
      const status = answer(req.url ?? "/");
      if (status !== false) res.writeHead(status).end();
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`;
}
function subscriptionKeys() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
}
const { keys } = subscriptionKeys();
const registerWeb = (base: string, token: string, endpoint: string, k = keys) =>
  call(base, "POST", "/notifications/register-device", { token, body: { platform: "web", subscription: { endpoint, keys: k } } });
const deviceCount = async (token: string) => (await call(api.url, "POST", "/vault/sync", { token })).body.summary.deviceTokens as number;

beforeAll(async () => {
  silentBase = await receiver(silentHits, () => false);
  pushBase = await receiver(pushHits, () => 201);
  hookBase = await receiver(hookHits, () => 200);
  const vapid = webpush.generateVAPIDKeys();
  chain = chainEnv();
  api = await startTestApi(
    {
      REACTORS_POLL_MS: "50", VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_ALLOW_PRIVATE_URLS: "true", WEBHOOKS_ALLOW_PRIVATE_URLS: "true", PUSH_MAX_DEVICES_PER_USER: "10", PUSH_TIMEOUT_MS: "5000",
    },
    { indexer: "shared" },
  );
  chain.setIndexer(api.follows);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  for (const s of servers) s.closeAllConnections();
  await api?.stop();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("web push", () => {
  it("SSRF: a push endpoint that is not a public https URL is refused and nothing is stored", async () => {
    const user = await chain.freshUser();
    const token = await signIn(api.url, user);
    const strict = await createServer({ env: { ...api.server.env, PUSH_ALLOW_PRIVATE_URLS: false, REACTORS_ENABLED: false, WEBHOOKS_DISPATCH_ENABLED: false } });
    try {
      const { url } = await strict.listen(0);
      const port = new URL(silentBase).port;
      for (const target of [
        `https://127.0.0.1:${port}/push`, "https://169.254.169.254/latest/meta-data", `https://localhost:${port}/push`,
        "https://[::1]/push", "https://10.0.0.1/push", "https://192.168.1.1/push", `${silentBase}/push`, "http://push.example.org/abc",
      ]) {
        const r = await registerWeb(url, token, target);
        expectError(r, 400, "VALIDATION_ERROR");
        expect(r.body.error.details[0].field, target).toBe("body.subscription.endpoint");
        expect(r.body.error.details[0].reason, target).toMatch(target.startsWith("http:") ? /https/ : /public address/);
      }
      expect(await deviceCount(token)).toBe(0);
      expect(silentHits).toEqual([]);
      // A public https endpoint passes the same check (no name lookup needed for a literal).
      const ok = await registerWeb(url, token, "https://93.184.215.14/push/abc");
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(await deviceCount(token)).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it("device cap: 10 devices are registered, the 11th is refused and nothing changes; a known one may register again", async () => {
    const user = await chain.freshUser();
    const token = await signIn(api.url, user);
    for (let i = 0; i < 9; i++) expect((await registerWeb(api.url, token, `${pushBase}/cap/${i}`)).status).toBe(200);
    expect((await call(api.url, "POST", "/notifications/register-device", { token, body: { platform: "ios", token: "apns-cap" } })).status).toBe(200);
    expect(await deviceCount(token)).toBe(10);
    const over = await registerWeb(api.url, token, `${pushBase}/cap/10`);
    expectError(over, 400, "VALIDATION_ERROR");
    expect(over.body.error.details[0]).toMatchObject({ field: "body.subscription.endpoint", reason: expect.stringMatching(/at most 10 devices/) });
    expectError(await call(api.url, "POST", "/notifications/register-device", { token, body: { platform: "android", token: "fcm-cap" } }), 400, "VALIDATION_ERROR");
    expect(await deviceCount(token)).toBe(10);
    // Registering again what is already there is a refresh, not one more device.
    expect((await registerWeb(api.url, token, `${pushBase}/cap/3`)).status).toBe(200);
    expect((await call(api.url, "POST", "/notifications/register-device", { token, body: { platform: "ios", token: "apns-cap" } })).status).toBe(200);
    expect(await deviceCount(token)).toBe(10);
    // Ten at once from a user with none: the cap holds under concurrency.
    const other = await signIn(api.url, await chain.freshUser());
    const all = await Promise.all(Array.from({ length: 14 }, (_, i) => registerWeb(api.url, other, `${pushBase}/race/${i}`)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(10);
    expect(await deviceCount(other)).toBe(10);
  });

  it("ten silent endpoints of one user delay neither another user's push and notification nor a webhook; each push is sent once", async () => {
    const [attacker, victim, worker] = [await chain.freshUser(), await chain.freshUser(), await chain.freshUser()];
    const ta = await signIn(api.url, attacker);
    const tv = await signIn(api.url, victim);
    for (let i = 0; i < 10; i++) expect((await registerWeb(api.url, ta, `${silentBase}/silent/${i}`)).status).toBe(200);
    const sub = subscriptionKeys();
    expect((await registerWeb(api.url, tv, `${pushBase}/victim`, sub.keys)).status).toBe(200);
    const hook = await call(api.url, "POST", "/webhooks", { token: tv, body: { url: `${hookBase}/victim`, events: ["mission.accepted"] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const ma = await chain.createMission(attacker, usdc(1));
    const mv = await chain.createMission(victim, usdc(1));
    // The attacker's event first: with the pushes sent in the reactor, its ten 5-s timeouts (50 s)
    // came before the victim's notification and webhook.
    await chain.escrow(worker, "acceptMission", [ma.onChainId, worker.address, ma.detailsHash]);
    await until("the attacker's first push to reach the silent endpoint", () => silentHits.length > 0, 30_000);
    await chain.escrow(worker, "acceptMission", [mv.onChainId, worker.address, mv.detailsHash]);
    const mined = performance.now();

    const webhookAt = (await until("the victim's webhook", () => hookHits.find((h) => h.path === "/victim"))).at;
    const pushAt = (await until("the victim's push", () => pushHits.find((h) => h.path === "/victim"))).at;
    const listed = await until("the victim's notification", async () => {
      const r = await call(api.url, "GET", "/notifications?type=MISSION_ACCEPTED", { token: tv });
      return r.body.notifications?.[0] as { id: string } | undefined;
    });
    const notifiedAt = performance.now();
    const figures = { webhookMs: Math.round(webhookAt - mined), pushMs: Math.round(pushAt - mined), notificationMs: Math.round(notifiedAt - mined) };
    console.log("push isolation (ms after the victim's accept was mined):", JSON.stringify(figures));
    // The old serial-in-reactor path: >= 50 s for all three. Indexing and the reactors' poll take ~1 s here.
    expect(figures.webhookMs, JSON.stringify(figures)).toBeLessThan(5_000);
    expect(figures.pushMs, JSON.stringify(figures)).toBeLessThan(5_000);
    expect(figures.notificationMs, JSON.stringify(figures)).toBeLessThan(5_000);
    // The attacker's pushes were in flight the whole time (one at a time: its pushes take one slot).
    expect(silentHits.length).toBeGreaterThanOrEqual(1);
    expect(silentHits.length).toBeLessThanOrEqual(2);

    // Exactly once: one push for the victim's notification, carrying that notification.
    const payload = JSON.parse(ece.decrypt(pushHits.find((h) => h.path === "/victim")!.body, { version: "aes128gcm", privateKey: sub.ecdh, authSecret: sub.auth }).toString());
    expect(payload).toMatchObject({ id: listed.id, type: "MISSION_ACCEPTED" });
    await sleep(1_000);
    expect(pushHits.filter((h) => h.path === "/victim")).toHaveLength(1);
    const { rows } = await pool.query(
      `SELECT p.status, p.attempts FROM api.push_deliveries p JOIN api.notifications n ON n.id = p.notification_id WHERE n.id = $1`, [listed.id]);
    expect(rows).toEqual([{ status: "sent", attempts: 1 }]);
    const queued = await pool.query(
      `SELECT count(*)::int AS n FROM api.push_deliveries p JOIN api.users u ON u.id = p.user_id WHERE u.evm_address = $1`, [attacker.address.toLowerCase()]);
    expect(queued.rows[0].n).toBe(10); // one per device of the attacker's one notification
  });
});
