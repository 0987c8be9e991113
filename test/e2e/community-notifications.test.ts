// Notifications from the journal over HTTP: shapes, read state, preferences, devices, and exactly
// once across API restarts and two API copies (the reactor leader lock). Events are sent straight
// to the contracts (chain first); the API only reacts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrivateKeyAccount } from "viem/accounts";
import pg from "pg";
import { createServer, type ApiServer } from "../../api/app.ts";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let pool: pg.Pool;

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits until the notifications reactor has consumed the journal up to `block`. */
async function reactedTo(block: bigint, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await reactorPassed(pool, api.server.env.CHAIN_SCHEMA, "notifications", block)) return;
    if (Date.now() > deadline) throw new Error(`reactor did not reach block ${block}; ${await snapshot()}`);
    await sleep(50);
  }
}
const list = (url: string, token: string, q = "") => call(url, "GET", `/notifications${q}`, { token });

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ REACTORS_POLL_MS: "50" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  pool = new pg.Pool({ connectionString: api.server.env.DATABASE_URL, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await api?.stop();
});

describe("notifications", () => {
  let poster: PrivateKeyAccount;
  let performer: PrivateKeyAccount;
  let tp: string;
  let tq: string;

  it("a mission's lifecycle notifies the poster (accepted, submitted, completed) and the performer (completed)", async () => {
    poster = await chain.freshUser();
    performer = await chain.freshUser();
    // Created before either has an account: notifications are keyed by address (shown after sign-in).
    const m = await chain.completeMission(poster, performer, usdc(5));
    await reactedTo(m.approved.blockNumber);
    tp = await signIn(api.url, poster);
    tq = await signIn(api.url, performer);

    const p = await list(api.url, tp);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.total).toBe(3);
    expect(p.body.unreadCount).toBe(3);
    expect(p.body.notifications.map((n: any) => n.type).sort()).toEqual(["MISSION_ACCEPTED", "MISSION_COMPLETED", "MISSION_SUBMITTED"]);
    for (const n of p.body.notifications) {
      expect(Object.keys(n).sort()).toEqual(["body", "createdAt", "data", "id", "read", "title", "type"]);
      expect(n.read).toBe(false);
      expect(typeof n.title).toBe("string");
      expect(new Date(n.createdAt).toISOString()).toBe(n.createdAt);
      expect(n.data.missionId).toMatch(/^[0-9a-f-]{36}$/);
    }
    const accepted = p.body.notifications.find((n: any) => n.type === "MISSION_ACCEPTED");
    // performerId: the performer signed in after the event, so it is the address (documented).
    expect(accepted.data.performerAddress).toBe(performer.address.toLowerCase());
    // The performer hears of the completion once; the profile area's achievements reactor may also
    // have minted a first-mission achievement (ACHIEVEMENT_EARNED), nothing else.
    // The achievement is minted by another reactor a moment later: wait for it (bounded), so the
    // list and the count below read the same settled set.
    let q = await list(api.url, tq);
    for (let i = 0; i < 100 && !q.body.notifications.some((n: any) => n.type === "ACHIEVEMENT_EARNED"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      q = await list(api.url, tq);
    }
    expect(q.body.notifications.map((n: any) => n.type).sort()).toEqual(["ACHIEVEMENT_EARNED", "MISSION_COMPLETED"]);
    expect((await call(api.url, "GET", "/notifications/unread-count", { token: tq })).body).toEqual({ count: 2 });
  });

  it("read, read-all, unread-count, filters, paging and validation", async () => {
    expect((await call(api.url, "GET", "/notifications/unread-count", { token: tp })).body).toEqual({ count: 3 });
    const all = (await list(api.url, tp)).body.notifications;
    const r = await call(api.url, "POST", `/notifications/${all[1].id}/read`, { token: tp });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.notification.read).toBe(true);
    expect((await call(api.url, "GET", "/notifications/unread-count", { token: tp })).body).toEqual({ count: 2 });
    const unread = await list(api.url, tp, "?unreadOnly=true");
    expect(unread.body.notifications.length).toBe(2);
    expect(unread.body.total).toBe(2);
    const typed = await list(api.url, tp, "?type=MISSION_SUBMITTED");
    expect(typed.body.notifications.map((n: any) => n.type)).toEqual(["MISSION_SUBMITTED"]);
    const page = await list(api.url, tp, "?skip=1&take=1");
    expect(page.body.notifications.length).toBe(1);
    expect(page.body.total).toBe(3);
    expect(page.body.notifications[0].id).toBe(all[1].id);
    // Another user's notification is not found for me.
    expectError(await call(api.url, "POST", `/notifications/${all[0].id}/read`, { token: tq }), 404, "NOT_FOUND");
    expectError(await call(api.url, "POST", `/notifications/not-a-uuid/read`, { token: tp }), 400, "VALIDATION_ERROR");
    const bad = await list(api.url, tp, "?take=0");
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details[0].field).toBe("query.take");
    expectError(await list(api.url, tp, "?type=NOPE"), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "GET", "/notifications"), 401, "UNAUTHORIZED");
    const ra = await call(api.url, "POST", "/notifications/read-all", { token: tp });
    expect(ra.body).toEqual({ success: true, updated: 2 });
    expect((await call(api.url, "GET", "/notifications/unread-count", { token: tp })).body).toEqual({ count: 0 });
  });

  it("preferences: missionUpdates=false stops mission notifications; other types and users unaffected", async () => {
    const bad = await call(api.url, "PATCH", "/notifications/preferences", { token: tp, body: { missionUpdates: "no" } });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error.details[0].field).toBe("body.missionUpdates");
    expectError(await call(api.url, "PATCH", "/notifications/preferences", { token: tp, body: {} }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "PATCH", "/notifications/preferences", { token: tp, body: { bogus: true } }), 400, "VALIDATION_ERROR");
    const u = await call(api.url, "PATCH", "/notifications/preferences", { token: tp, body: { missionUpdates: false } });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(u.body.preferences).toEqual({
      pushEnabled: true, emailEnabled: false, missionUpdates: false, guildUpdates: true, xpUpdates: true, marketingUpdates: false, ratingUpdates: false,
    });
    const m = await chain.completeMission(poster, performer, usdc(2));
    await reactedTo(m.approved.blockNumber);
    expect((await list(api.url, tp)).body.total).toBe(3); // nothing new for the poster
    expect((await list(api.url, tq, "?type=MISSION_COMPLETED")).body.total).toBe(2); // the performer still hears of it
  });

  it("register-device: mobile token, web subscription (idempotent), bad bodies refused", async () => {
    const ios = await call(api.url, "POST", "/notifications/register-device", { token: tp, body: { token: "apns-token-1", platform: "ios" } });
    expect(ios.status, JSON.stringify(ios.body)).toBe(200);
    expect(ios.body).toMatchObject({ success: true, platform: "ios", pushDelivery: false });
    // A public address literal: registration resolves the host (SSRF guard) and this machine has no DNS.
    const sub = { endpoint: "https://93.184.215.14/abc", keys: { p256dh: "BPk", auth: "xyz" } };
    const w1 = await call(api.url, "POST", "/notifications/register-device", { token: tp, body: { subscription: sub, platform: "web" } });
    const w2 = await call(api.url, "POST", "/notifications/register-device", { token: tp, body: { subscription: sub, platform: "web" } });
    expect(w1.status).toBe(200);
    expect(w2.body.deviceId).toBe(w1.body.deviceId);
    expectError(await call(api.url, "POST", "/notifications/register-device", { token: tp, body: { token: "t", platform: "fax" } }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "POST", "/notifications/register-device", { token: tp, body: { platform: "web", subscription: { endpoint: "x" } } }), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "POST", "/notifications/register-device", { body: { token: "t", platform: "ios" } }), 401, "UNAUTHORIZED");
  });
});

/** What the stack looks like when a step hangs: named in the failure instead of a bare test timeout. */
async function snapshot(): Promise<string> {
  const q = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params).catch((e: Error) => ({ rows: [{ error: e.message }] }))).rows;
  const parts = {
    cursors: await q("SELECT reactor, last_id::text FROM api.reactor_cursors"),
    journalMax: await q(`SELECT max(id)::text AS id FROM "${api.server.env.CHAIN_SCHEMA}".journal`),
    indexed: await api.follows!.indexedBlock().catch((e: Error) => e.message),
    head: await chain.client.getBlockNumber().then(String, (e: Error) => e.message),
    outbox: await q("SELECT status, count(*)::int AS n FROM api.relayer_outbox GROUP BY status"),
    waiting: await q(
      `SELECT state, wait_event_type, wait_event, left(query, 120) AS query, (now() - query_start)::text AS for
         FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND pid <> pg_backend_pid()`,
    ),
  };
  return JSON.stringify(parts);
}
async function step<T>(label: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void snapshot().then((s) => reject(new Error(`step "${label}" did not finish in ${ms} ms; ${s}`))), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("exactly once", () => {
  it("a stream of events across API restarts and two copies: not one notification missing nor doubled", async () => {
    const p = await step("fresh users", 40_000, chain.freshUser());
    const workers = [await step("fresh users", 40_000, chain.freshUser()), await step("fresh users", 40_000, chain.freshUser())];
    const copies: ApiServer[] = [];
    const start = async () => {
      const s = await step("start a copy", 20_000, createServer({ env: { ...api.server.env } }));
      copies.push(s);
      return s;
    };
    await start(); // a second copy next to the test API: only one leader may act
    const N = 10;
    const missions: bigint[] = [];
    let last = 0n;
    const stream = (async () => {
      for (let i = 0; i < N; i++) {
        const m = await step(`create mission ${i}`, 40_000, chain.createMission(p, usdc(1 + i)));
        const w = workers[i % 2]!;
        const r = await step(`accept mission ${i}`, 40_000, chain.escrow(w, "acceptMission", [m.onChainId, w.address, m.detailsHash]));
        missions.push(m.onChainId);
        last = r.blockNumber;
      }
    })();
    // Restart copies while the stream runs: close the oldest, start a new one.
    for (let k = 0; k < 3; k++) {
      await sleep(400);
      await step("close a copy", 20_000, copies.shift()!.close());
      await start();
    }
    await stream;
    await reactedTo(last, 60_000);
    const tokenP = await signIn(api.url, p);
    const res = await list(api.url, tokenP, "?type=MISSION_ACCEPTED&take=100");
    expect(res.body.total).toBe(N);
    const ids = res.body.notifications.map((n: any) => n.data.missionId);
    expect(new Set(ids).size).toBe(N);
    const { rows } = await pool.query(
      "SELECT source_key, count(*)::int AS n FROM api.notifications WHERE address = $1 GROUP BY source_key HAVING count(*) > 1",
      [p.address.toLowerCase()],
    );
    expect(rows).toEqual([]);
    await sleep(500); // nothing more arrives later either
    expect((await list(api.url, tokenP, "?type=MISSION_ACCEPTED&take=100")).body.total).toBe(N);
    for (const c of copies) await step("close a copy", 20_000, c.close());
  });
});
