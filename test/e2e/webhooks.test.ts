// Webhooks over the real stack: a receiver on 127.0.0.1 (node:http) gets signed events from the
// journal; signatures are checked with the `standardwebhooks` package, not the project's code.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import type { PrivateKeyAccount } from "viem/accounts";
import { createServer, type ApiServer } from "../../api/app.ts";
import { releaseIndexerLock, startIndexer } from "../../script/lib/indexer.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

interface Receipt { path: string; id: string; timestamp: string; signature: string; body: string; headers: Record<string, string> }

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;
let receiver: http.Server;
let base: string;
const got: Receipt[] = [];
const seenOnce = new Set<string>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; received ${JSON.stringify(got.map((g) => [g.path, g.id]))}; ${await snapshot()}`);
    await sleep(50);
  }
}
/** The outbox and cursors when a wait times out: named in the failure instead of a bare timeout. */
async function snapshot(): Promise<string> {
  const q = async (sql: string) => (await pool.query(sql).catch((e: Error) => ({ rows: [{ error: e.message }] }))).rows;
  return JSON.stringify({
    cursors: await q("SELECT reactor, last_id::text FROM api.reactor_cursors"),
    deliveries: await q("SELECT event, status, attempts, message_id FROM api.webhook_deliveries ORDER BY created_at DESC LIMIT 20"),
    attempts: await q("SELECT status, response_code, error FROM api.webhook_attempts ORDER BY id DESC LIMIT 10"),
  });
}
const at = (path: string) => got.filter((g) => g.path === path);
const event = (r: Receipt) => JSON.parse(r.body) as { event: string; data: Record<string, any> };
const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const missionUuid = async (onChainId: bigint) =>
  (await pool.query(`SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE on_chain_id = $1`, [onChainId.toString()])).rows[0].id as string;
const register = (token: string, body: unknown) => call(api.url, "POST", "/webhooks", { token, body });

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const h = req.headers as Record<string, string>;
      const path = req.url ?? "/";
      got.push({ path, id: h["webhook-id"]!, timestamp: h["webhook-timestamp"]!, signature: h["webhook-signature"]!, body: Buffer.concat(chunks).toString(), headers: h });
      let status = 200;
      if (path === "/dead") status = 500;
      if (path === "/flaky" && !seenOnce.has(h["webhook-id"]!)) {
        seenOnce.add(h["webhook-id"]!);
        status = 500;
      }
      res.writeHead(status).end(status === 200 ? "ok" : "nope");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  chain = chainEnv();
  api = await startTestApi(
    {
      // The dispatcher's safety poll is set far beyond every wait here: deliveries and retries must come
      // from PostgreSQL's wake-ups and the dispatcher's own due times (a 500-ms poll hid them before).
      REACTORS_POLL_MS: "50", WEBHOOKS_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "200", WEBHOOK_POLL_MS: "60000",
      WEBHOOK_MAX_ATTEMPTS: "3", WEBHOOK_TIMEOUT_MS: "3000",
    },
    { indexer: true },
  );
  chain.setIndexer(api.indexer);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await api?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe("webhooks", () => {
  let poster: PrivateKeyAccount;
  let performer: PrivateKeyAccount;
  let tp: string;
  /** The poster's endpoint's delivery log once it holds `n` attempts (the dispatcher records an attempt
   * after the receiver answers, so the log can trail the receiver by a moment). */
  const deliveries = (id: string, n: number) =>
    until(`${n} attempts in the delivery log`, async () => {
      const d = (await call(api.url, "GET", `/webhooks/${id}/deliveries`, { token: tp })).body.deliveries as any[];
      return d.length >= n ? d : null;
    }, 5_000);

  it("registration; an accept on the poster's mission delivers mission.accepted, verified by standardwebhooks", async () => {
    poster = await chain.freshUser();
    performer = await chain.freshUser();
    tp = await signIn(api.url, poster);
    expectError(await call(api.url, "POST", "/webhooks", { body: { url: `${base}/a`, events: ["mission.accepted"] } }), 401, "UNAUTHORIZED");
    for (const bad of [
      { url: "ftp://example.com/x", events: ["mission.accepted"] },
      { url: `https://example.com/${"x".repeat(2100)}`, events: ["mission.accepted"] },
      { url: "not a url", events: ["mission.accepted"] },
      { url: `${base}/a`, events: ["mission.exploded"] },
      { url: `${base}/a`, events: [] },
    ]) {
      const r = await register(tp, bad);
      expectError(r, 400, "VALIDATION_ERROR");
      expect(r.body.error.details[0].field).toMatch(/^body\.(url|events)/);
    }
    expect((await call(api.url, "GET", "/webhooks", { token: tp })).body.webhooks).toEqual([]); // bad input changed nothing

    const r = await register(tp, { url: `${base}/a`, events: ["mission.accepted"], description: "back office" });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["createdAt", "description", "events", "id", "secret", "url"]);
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const listed = await call(api.url, "GET", "/webhooks", { token: tp });
    expect(listed.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(r.body.secret.slice(6));

    const m = await chain.createMission(poster, usdc(3));
    await chain.escrow(performer, "acceptMission", [m.onChainId, performer.address, m.detailsHash]);
    // Within seconds of the accept, with the dispatcher's safety poll at 60 s: its wake-up did this.
    const msg = await until("mission.accepted at /a", () => at("/a")[0], 10_000);
    const payload = new Webhook(r.body.secret).verify(msg.body, msg.headers) as { event: string; data: Record<string, any> };
    expect(payload.event).toBe("mission.accepted");
    expect(payload.data.missionId).toBe(await missionUuid(m.onChainId));
    expect(payload.data.performerId).toBe(performer.address.toLowerCase()); // no account: the address
    expect(payload.data.performerAddress).toBe(performer.address.toLowerCase());
    expect(new Date(payload.data.timestamp).toISOString()).toBe(payload.data.timestamp);
    expect(msg.id).toMatch(/^msg_\d+_\d+$/);
    // A wrong secret fails verification: the check can fail.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(msg.body, msg.headers)).toThrow();
    await sleep(500);
    expect(at("/a")).toHaveLength(1); // mission.created was not subscribed
    const log = await call(api.url, "GET", `/webhooks/${r.body.id}/deliveries`, { token: tp });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    expect(log.body.deliveries[0]).toMatchObject({ messageId: msg.id, event: "mission.accepted", status: "succeeded", responseCode: 200, nextRetryAt: null });
    expect(log.body.deliveries[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it("a receiver that answers 500 once gets a retry with the same webhook-id", async () => {
    const r = await register(tp, { url: `${base}/flaky`, events: ["mission.accepted", "mission.created"] });
    expect(r.status).toBe(201);
    const m = await chain.createMission(poster, usdc(2));
    const two = await until("created twice at /flaky", () => (at("/flaky").length >= 2 ? at("/flaky") : null), 10_000);
    expect(two[0]!.id).toBe(two[1]!.id);
    expect(event(two[1]!).event).toBe("mission.created");
    expect(event(two[1]!).data.missionId).toBe(await missionUuid(m.onChainId));
    expect(two[1]!.body).toBe(two[0]!.body); // same bytes on retry
    const log = await deliveries(r.body.id, 2);
    expect(log.map((d: any) => [d.attempt, d.status, d.responseCode])).toEqual([[2, "succeeded", 200], [1, "failed", 500]]);
    expect(log[1].nextRetryAt).toBeNull(); // delivered since: no retry pending
  });

  it("secret rotation: both signatures are present during the overlap", async () => {
    const r = await register(tp, { url: `${base}/rot`, events: ["mission.created"] });
    const rot = await call(api.url, "POST", `/webhooks/${r.body.id}/rotate-secret`, { token: tp });
    expect(rot.status, JSON.stringify(rot.body)).toBe(200);
    expect(rot.body.secret).not.toBe(r.body.secret);
    const overlap = new Date(rot.body.previousSecretExpiresAt).getTime() - Date.now();
    expect(overlap).toBeGreaterThan(23.9 * 3600_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
    await chain.createMission(poster, usdc(1));
    const msg = await until("created at /rot", () => at("/rot")[0]);
    expect(msg.signature.split(" ")).toHaveLength(2);
    for (const secret of [rot.body.secret, r.body.secret]) {
      // Each secret alone verifies: the header carries one signature per secret.
      expect((new Webhook(secret).verify(msg.body, msg.headers) as any).event).toBe("mission.created");
    }
  });

  it("repeated failure disables the endpoint and notifies its owner", async () => {
    const r = await register(tp, { url: `${base}/dead`, events: ["mission.created"] });
    await chain.createMission(poster, usdc(1));
    const hooks = await until("the endpoint disabled", async () => {
      const l = (await call(api.url, "GET", "/webhooks", { token: tp })).body.webhooks.find((w: any) => w.id === r.body.id);
      return l.enabled ? null : l;
    });
    expect(hooks.disabledAt).toBeTruthy();
    const attempts = at("/dead");
    expect(attempts).toHaveLength(3); // WEBHOOK_MAX_ATTEMPTS
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    const n = await call(api.url, "GET", "/notifications?type=WEBHOOK_DISABLED", { token: tp });
    expect(n.status, JSON.stringify(n.body)).toBe(200);
    expect(n.body.notifications).toHaveLength(1);
    expect(n.body.notifications[0].data.webhookId).toBe(r.body.id);
    const log = await deliveries(r.body.id, 3);
    expect(log.map((d: any) => d.status)).toEqual(["gave_up", "failed", "failed"]);
  });

  it("a lost wake-up connection is replaced: the next event is still delivered within seconds", async () => {
    const listeners = async () =>
      (await pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN webhook_deliveries'`)).rows.map((r) => r.pid);
    const before = await until("the dispatcher's LISTEN", async () => ((await listeners()).length ? await listeners() : null), 10_000);
    await pool.query("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [before]);
    await until("a new LISTEN", async () => ((await listeners()).some((p) => !before.includes(p)) ? true : null), 10_000);
    const r = await register(tp, { url: `${base}/relisten`, events: ["mission.created"] });
    expect(r.status).toBe(201);
    const m = await chain.createMission(poster, usdc(1));
    const t0 = Date.now();
    const msg = await until("created at /relisten", () => at("/relisten")[0], 15_000);
    expect(event(msg).data.missionId).toBe(await missionUuid(m.onChainId));
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it("other users cannot list, read, rotate or delete someone's endpoints; the owner can delete", async () => {
    const other = await chain.freshUser();
    const to = await signIn(api.url, other);
    const mine = (await call(api.url, "GET", "/webhooks", { token: tp })).body.webhooks;
    expect(mine.length).toBeGreaterThan(0);
    expect((await call(api.url, "GET", "/webhooks", { token: to })).body.webhooks).toEqual([]);
    const id = mine[0].id;
    expectError(await call(api.url, "GET", `/webhooks/${id}/deliveries`, { token: to }), 404, "NOT_FOUND");
    expectError(await call(api.url, "DELETE", `/webhooks/${id}`, { token: to }), 404, "NOT_FOUND");
    expectError(await call(api.url, "POST", `/webhooks/${id}/rotate-secret`, { token: to }), 404, "NOT_FOUND");
    expectError(await call(api.url, "GET", `/webhooks/not-a-uuid/deliveries`, { token: tp }), 400, "VALIDATION_ERROR");
    expect((await call(api.url, "GET", "/webhooks", { token: tp })).body.webhooks).toHaveLength(mine.length);
    const del = await call(api.url, "DELETE", `/webhooks/${id}`, { token: tp });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect((await call(api.url, "GET", "/webhooks", { token: tp })).body.webhooks).toHaveLength(mine.length - 1);
    expectError(await call(api.url, "DELETE", `/webhooks/${id}`, { token: tp }), 404, "NOT_FOUND");
  });

  it("SSRF: loopback, private, link-local and a name resolving to loopback are refused when the flag is off", async () => {
    const strict = await createServer({ env: { ...api.server.env, WEBHOOKS_ALLOW_PRIVATE_URLS: false, REACTORS_ENABLED: false, WEBHOOKS_DISPATCH_ENABLED: false } });
    try {
      const { url } = await strict.listen(0);
      for (const target of ["http://127.0.0.1/hook", "http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data", "http://localhost:8080/hook", "http://[::1]/hook"]) {
        const r = await call(url, "POST", "/webhooks", { token: tp, body: { url: target, events: ["mission.created"] } });
        expectError(r, 400, "VALIDATION_ERROR");
        expect(r.body.error.details[0].field).toBe("body.url");
      }
    } finally {
      await strict.close();
    }
  });

  it("/openapi.json lists the five routes", async () => {
    const doc = (await call(api.url, "GET", "/openapi.json")).body;
    expect(Object.keys(doc.paths["/webhooks"])).toEqual(expect.arrayContaining(["get", "post"]));
    expect(Object.keys(doc.paths["/webhooks/{id}"])).toContain("delete");
    expect(Object.keys(doc.paths["/webhooks/{id}/deliveries"])).toContain("get");
    expect(Object.keys(doc.paths["/webhooks/{id}/rotate-secret"])).toContain("post");
  });
});

describe("exactly once", () => {
  it("API restarts, an indexer kill and two API copies mid-stream: each event reaches the endpoint once, in chain order", async () => {
    const p = await chain.freshUser();
    const worker = await chain.freshUser();
    const token = await signIn(api.url, p);
    const r = await register(token, { url: `${base}/count`, events: ["mission.created", "mission.accepted"] });
    expect(r.status).toBe(201);
    const env = api.server.env;
    const copies: ApiServer[] = [await createServer({ env: { ...env } })]; // a second copy beside the test API
    const N = 8;
    const missions: bigint[] = [];
    const one = async () => {
      const m = await chain.createMission(p, usdc(1));
      await chain.escrow(worker, "acceptMission", [m.onChainId, worker.address, m.detailsHash]);
      missions.push(m.onChainId);
    };
    for (let i = 0; i < 2; i++) await one();
    // Restart the extra copy while the stream goes on.
    await copies.shift()!.close();
    copies.push(await createServer({ env: { ...env } }));
    for (let i = 0; i < 2; i++) await one();
    // Kill the indexer (SIGKILL: no clean shutdown), go on while it is down, restart it on its schemas.
    const old = api.indexer!;
    process.kill(old.pid, "SIGKILL");
    await until("the indexer to exit", () => { try { process.kill(old.pid, 0); return false; } catch { return true; } });
    chain.setIndexer(undefined);
    for (let i = 0; i < 2; i++) await one();
    await releaseIndexerLock(pool, old.schema);
    api.indexer = await startIndexer({
      databaseUrl: inject("databaseUrl"), rpcUrl: inject("rpcUrl"), wsUrl: inject("wsUrl"), deploymentFile: inject("deploymentFile"),
      schema: old.schema, viewsSchema: old.viewsSchema, port: old.port,
    });
    chain.setIndexer(api.indexer);
    // And restart the copy once more, then finish the stream.
    await copies.shift()!.close();
    copies.push(await createServer({ env: { ...env } }));
    for (let i = 0; i < 2; i++) await one();
    expect(missions).toHaveLength(N);

    const ids = await until("2N events at /count", () => (new Set(at("/count").map((g) => g.id)).size >= 2 * N ? true : null), 120_000);
    expect(ids).toBe(true);
    await sleep(1_500); // nothing more arrives later
    const received = at("/count");
    const perId = new Map<string, number>();
    for (const g of received) perId.set(g.id, (perId.get(g.id) ?? 0) + 1);
    expect(perId.size).toBe(2 * N);
    expect([...perId.values()].every((n) => n === 1), JSON.stringify([...perId])).toBe(true);
    for (const g of received) expect(() => new Webhook(r.body.secret).verify(g.body, g.headers)).not.toThrow();
    // Chain order: journal ids (in the webhook-id) only grow.
    const journalIds = received.map((g) => BigInt(g.id.split("_")[2]!));
    expect(journalIds.every((id, i) => i === 0 || id > journalIds[i - 1]!)).toBe(true);
    const uuids = new Set(await Promise.all(missions.map(missionUuid)));
    for (const kind of ["mission.created", "mission.accepted"]) {
      const of = received.map(event).filter((e) => e.event === kind).map((e) => e.data.missionId);
      expect(new Set(of)).toEqual(uuids);
    }
    for (const c of copies) await c.close();
  });
});
