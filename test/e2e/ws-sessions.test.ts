// /ws honours sessions and limits, with real `ws` clients on two API copies over one PostgreSQL:
// a token HTTP refuses (revoked, expired, bad) gets 401 at the upgrade; an open socket whose session
// DELETE /vault/delete revokes on copy A is closed on copy B (4401) and gets nothing more; a
// revocation that bypasses the notification, and a token's expiry, close sockets at the periodic
// re-check; upgrades count in the HTTP rate limiter; open connections are capped per IP and per user.
// Clients are told apart by X-Forwarded-For (TRUST_PROXY), as behind a real deployment's proxy.
import { SignJWT } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";

const CAPS = { ip: 6, user: 3 };
let a: TestApi;
let b: TestApi;
const sockets: WebSocket[] = [];
const fresh = () => privateKeyToAccount(generatePrivateKey());

interface Sock {
  ws: WebSocket;
  frames: { event: string; data: any; at: number }[];
  closed: Promise<{ code: number; reason: string; at: number }>;
}
type Upgrade = Sock | { status: number; body: any; headers: Record<string, string | string[] | undefined> };

/** Opens /ws; resolves with the socket once `ready` came, or with the refused upgrade's response. */
function open(api: TestApi, o: { token?: string; ip?: string } = {}): Promise<Upgrade> {
  const url = api.url.replace("http", "ws") + "/ws" + (o.token ? `?token=${o.token}` : "");
  const ws = new WebSocket(url, { headers: o.ip ? { "X-Forwarded-For": o.ip } : {} });
  sockets.push(ws);
  const frames: Sock["frames"] = [];
  const closed = new Promise<{ code: number; reason: string; at: number }>((r) =>
    ws.on("close", (code, reason) => r({ code, reason: reason.toString(), at: Date.now() })));
  return new Promise((resolve, reject) => {
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }));
    });
    ws.on("error", (err) => reject(err));
    ws.on("message", (raw) => {
      const f = { ...JSON.parse(raw.toString()), at: Date.now() };
      frames.push(f);
      if (f.event === "ready") resolve({ ws, frames, closed });
    });
  });
}
const opened = async (api: TestApi, o: { token?: string; ip?: string } = {}): Promise<Sock> => {
  const u = await open(api, o);
  if (!("ws" in u)) throw new Error(`upgrade refused: ${u.status} ${JSON.stringify(u.body)}`);
  return u;
};
const refused = async (api: TestApi, o: { token?: string; ip?: string }, status: number, code: string) => {
  const u = await open(api, o);
  if ("ws" in u) throw new Error("upgrade accepted");
  expect(u.status, JSON.stringify(u.body)).toBe(status);
  expect(u.body.error.code).toBe(code);
  return u;
};
/** The socket's close, or a clear failure after `ms` (a socket that stays open is the bug). */
const closedWithin = (s: Sock, ms: number) =>
  Promise.race([s.closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms))]);
const closeAll = async (socks: Sock[]) => {
  for (const s of socks) s.ws.close();
  await Promise.all(socks.map((s) => s.closed));
};
const subscribe = async (s: Sock, geohash: string) => {
  s.ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash } }));
  const deadline = Date.now() + 5000;
  while (!s.frames.some((f) => f.event === "subscribed" && f.data.geohash === geohash)) {
    if (Date.now() > deadline) throw new Error(`not subscribed: ${JSON.stringify(s.frames)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";
/** A token as the API signs it, expiring `expiresIn` seconds from now (negative: already expired). */
const mint = (claims: { sub: string; addr: string; sev: number }, expiresIn: number) =>
  new SignJWT({ addr: claims.addr, sev: claims.sev })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer("mission-marketplace-api")
    .setAudience("mission-marketplace")
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn)
    .sign(new TextEncoder().encode(SECRET));
const userOf = async (address: string) =>
  (await a.server.deps.database.pool.query(`SELECT id, session_epoch FROM api.users WHERE evm_address = $1`, [address.toLowerCase()])).rows[0];

beforeAll(async () => {
  const limits = { WS_MAX_CONNECTIONS_PER_IP: String(CAPS.ip), WS_MAX_CONNECTIONS_PER_USER: String(CAPS.user), TRUST_PROXY: "true", WS_SESSION_RECHECK_MS: "1000" };
  a = await startTestApi(limits, { indexer: "shared" });
  b = await startTestApi({ ...limits, CHAIN_SCHEMA: a.server.env.CHAIN_SCHEMA, INDEXER_URL: a.follows!.url });
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await b?.stop();
  await a?.stop();
});

describe("/ws sessions", () => {
  it("a revoked, an expired and a bad token get 401 at the upgrade; the same token worked before", async () => {
    const u = fresh();
    const token = await signIn(a.url, u);
    await closeAll([await opened(a, { token, ip: "10.1.0.1" })]);
    const del = await call(a.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    for (const api of [a, b]) {
      const r = await refused(api, { token, ip: "10.1.0.1" }, 401, "UNAUTHORIZED");
      expect(r.body.error.message).toMatch(/revoked/);
    }
    const row = await userOf(u.address);
    const expired = await mint({ sub: row.id, addr: u.address.toLowerCase(), sev: row.session_epoch }, -10);
    expect((await refused(a, { token: expired, ip: "10.1.0.1" }, 401, "UNAUTHORIZED")).body.error.message).toMatch(/expired/);
    const nobody = await mint({ sub: crypto.randomUUID(), addr: u.address.toLowerCase(), sev: 0 }, 3600);
    await refused(a, { token: nobody, ip: "10.1.0.1" }, 401, "UNAUTHORIZED");
    await closeAll([await opened(a, { token: await signIn(a.url, u), ip: "10.1.0.1" })]);
  });

  it("DELETE /vault/delete on copy A closes the session's open socket on copy B (4401) and it gets no more frames", async () => {
    const victim = fresh();
    const poster = anvilAccount(7);
    const token = await signIn(a.url, victim);
    const posterToken = await signIn(a.url, poster);
    const spot = { latitude: 47.37 + Math.random() * 0.01, longitude: 8.54 + Math.random() * 0.01 };
    const area = geohashEncode(spot.latitude, spot.longitude, 5);
    const stolen = await opened(b, { token, ip: "10.2.0.1" });
    const witness = await opened(b, { ip: "10.2.0.2" });
    await subscribe(stolen, area);
    await subscribe(witness, area);

    const started = Date.now();
    const del = await call(a.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const closed = await closedWithin(stolen, 5000);
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/revoked/);
    console.log(`ws: revoked socket closed ${closed.at - started} ms after DELETE /vault/delete was sent (other copy)`);
    expect(closed.at - started).toBeLessThan(2000);

    const res = await call(a.url, "POST", "/missions", {
      token: posterToken,
      body: { title: "After revocation", description: "ws", rewardAmount: "3", category: "ws", expiresIn: 3600, location: { ...spot, radius: 80 } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const deadline = Date.now() + 5000;
    while (!witness.frames.some((f) => f.event === "mission:created" && f.data.mission.id === res.body.data.id)) {
      if (Date.now() > deadline) throw new Error(`witness got no mission:created: ${JSON.stringify(witness.frames)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(stolen.frames.filter((f) => f.at >= started)).toEqual([]);
    expect(witness.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("a revocation written without a notification, and a token's expiry, close sockets at the periodic re-check", async () => {
    const u = fresh();
    const token = await signIn(a.url, u);
    const row = await userOf(u.address);
    const v = fresh();
    await signIn(a.url, v);
    const vRow = await userOf(v.address);
    const soon = await mint({ sub: vRow.id, addr: v.address.toLowerCase(), sev: vRow.session_epoch }, 3);
    const [quiet, expiring] = [await opened(a, { token, ip: "10.3.0.1" }), await opened(b, { token: soon, ip: "10.3.0.1" })];
    const t0 = Date.now();
    await a.server.deps.database.pool.query(`UPDATE api.users SET session_epoch = session_epoch + 1 WHERE id = $1`, [row.id]);
    const q = await closedWithin(quiet, 5000);
    expect(q).toMatchObject({ code: 4401, reason: "session revoked: sign in again" });
    expect(q.at - t0).toBeLessThan(3000); // WS_SESSION_RECHECK_MS 1000
    const e = await closedWithin(expiring, 8000);
    expect(e).toMatchObject({ code: 4401, reason: "token expired: sign in again" });
    expect(e.at - t0).toBeLessThan(5000);
  });

  it("caps: 6 open connections per IP, 3 per user (429 at the upgrade); a closed one frees its slot", async () => {
    const ip = "10.4.0.1";
    const anon = [];
    for (let i = 0; i < CAPS.ip; i++) anon.push(await opened(a, { ip }));
    const over = await refused(a, { ip }, 429, "RATE_LIMITED");
    expect(over.body.error.message).toMatch(/per IP/);
    await closeAll([await opened(a, { ip: "10.4.0.2" })]); // another IP is served
    await opened(b, { ip }); // caps are per copy (each holds its own sockets)
    await closeAll(anon.splice(0, 1));
    anon.push(await opened(a, { ip }));
    await refused(a, { ip }, 429, "RATE_LIMITED");

    const token = await signIn(a.url, fresh());
    const mine = [];
    for (let i = 0; i < CAPS.user; i++) mine.push(await opened(a, { token, ip: `10.4.1.${i}` }));
    const overUser = await refused(a, { token, ip: "10.4.1.9" }, 429, "RATE_LIMITED");
    expect(overUser.body.error.message).toMatch(/per user/);
    await closeAll(mine.splice(0, 1));
    mine.push(await opened(a, { token, ip: "10.4.1.9" }));
    await closeAll([...anon, ...mine]);
  });

  it("upgrades count in the HTTP rate limiter (by IP anonymous, by user signed in), with the HTTP headers", async () => {
    const limited = await startTestApi({ RATE_LIMIT_ANON_PER_MIN: "4", RATE_LIMIT_USER_PER_MIN: "4", TRUST_PROXY: "true" });
    try {
      const ip = "10.5.0.1";
      const token = await signIn(limited.url, fresh()); // from 127.0.0.1, before the window's counts below
      if (60_000 - (Date.now() % 60_000) < 10_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 250));
      // HTTP requests to an unknown path: counted (the limiter runs before routing), answered 404.
      const http = () => call(limited.url, "GET", "/no/such/route", { headers: { "X-Forwarded-For": ip } });
      expect((await http()).status).toBe(404);
      const socks = [await opened(limited, { ip }), await opened(limited, { ip })];
      expect((await http()).status).toBe(404);
      const r = await refused(limited, { ip }, 429, "RATE_LIMITED");
      expect(r.headers["x-ratelimit-limit"]).toBe("4");
      expect(r.headers["x-ratelimit-remaining"]).toBe("0");
      expect(Number(r.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      expect((await http()).status).toBe(429);
      // A bad token counts by IP before its 401, as on HTTP: this IP is over, so 429.
      await refused(limited, { ip, token: "garbage" }, 429, "RATE_LIMITED");
      // Signed in, the same IP's upgrade counts against the user instead.
      socks.push(await opened(limited, { ip, token }));
      await closeAll(socks);
    } finally {
      await limited.stop();
    }
  });
});
