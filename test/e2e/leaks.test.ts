// The attacks of the security review, run for real, each shown to fail with nothing leaked and
// nothing changed: another mission's details (exact point included) through a copied details hash,
// presence answers that trilaterate a hidden point, a body read whole before sign-in, another
// dispute's private reason through a copied reason hash, and the published development JWT secret
// on a chain other than the local one. The copied hashes are committed by wallets calling the
// contracts directly, as an attacker would.
import http from "node:http";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createServer } from "../../api/app.ts";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { missionUuid } from "../../domain/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, reactorPassed, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
// Accounts the deployment set up for the relayer (users may write through the API).
const [victim, attacker, stranger] = [anvilAccount(5), anvilAccount(6), anvilAccount(4)];
const tokens = new Map<string, string>();
const tok = (u: { address: Address }) => tokens.get(u.address)!;
// Random digits so that no other file's mission shares them.
const secretPoint = { latitude: 52.1 + Math.round(Math.random() * 1e4) / 1e6, longitude: 4.3 + Math.round(Math.random() * 1e4) / 1e6 };
const SECRET_TITLE = `Collect the keys under the doormat ${Math.random().toString(36).slice(2, 8)}`;
const SECRET_TEXT = `Door code 4417, alarm off ${Math.random().toString(36).slice(2, 8)}`;
const mid = (onChainId: bigint) => missionUuid(chain.deployment.chainId, chain.c.MissionEscrow.address as Address, onChainId);
/** Whether a response (or a frame) carries any part of the victim's private details. */
const leaks = (x: unknown) => {
  const s = JSON.stringify(x);
  return [SECRET_TITLE, SECRET_TEXT, String(secretPoint.latitude), String(secretPoint.longitude)].filter((v) => s.includes(v));
};

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ EVIDENCE_DIR: `/tmp/leaks-evidence-${Date.now()}` }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  for (const u of [victim, attacker, stranger]) tokens.set(u.address, await signIn(api.url, u));
});
afterAll(async () => {
  await api?.stop();
});
async function until(what: string, ok: () => Promise<boolean>, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("a copied details hash", () => {
  let victimMission: string;
  let victimHash: Hex;
  beforeAll(async () => {
    const created = await call(api.url, "POST", "/missions", {
      token: tok(victim),
      body: {
        title: SECRET_TITLE, description: SECRET_TEXT, rewardAmount: "3", category: "errands", expiresIn: 86_400,
        location: { ...secretPoint, radius: 50 }, metadata: { note: SECRET_TEXT },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    victimMission = created.body.data.id;
    // Public: every MissionCreated event carries it.
    const { rows } = await api.server.deps.database.pool.query(
      `SELECT details_hash FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE id = $1`, [victimMission]);
    victimHash = rows[0].details_hash;
  });

  it("gives the attacker's own mission none of the victim's details (REST, list, export, PATCH)", async () => {
    const own = await chain.createMission(attacker as never, usdc(1));
    const ownId = mid(own.onChainId);
    await chain.escrow(attacker as never, "updateDetails", [own.onChainId, victimHash]);
    const committed = await api.server.deps.database.pool.query(
      `SELECT details_hash FROM "${api.server.env.CHAIN_SCHEMA}".missions WHERE id = $1`, [ownId]);
    expect(committed.rows[0].details_hash, "the chain holds the copied hash").toBe(victimHash);

    const single = await call(api.url, "GET", `/missions/${ownId}`, { token: tok(attacker) });
    expect(single.status).toBe(200);
    expect(leaks(single.body)).toEqual([]);
    expect(single.body.data.location).toBeNull();
    const list = await call(api.url, "GET", `/missions?posterId=${attacker.address}&limit=100`, { token: tok(attacker) });
    expect(list.body.data.map((m: any) => m.id)).toContain(ownId);
    expect(leaks(list.body)).toEqual([]);
    const exported = await call(api.url, "GET", "/vault/export", { token: tok(attacker) });
    expect(exported.status).toBe(200);
    expect(leaks(exported.body)).toEqual([]);

    // Editing the mission through the API starts from its own (empty) details, not the victim's.
    const patched = await call(api.url, "PATCH", `/missions/${ownId}`, { token: tok(attacker), body: { title: "Mine now" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(leaks(patched.body)).toEqual([]);
    const after = await call(api.url, "GET", `/missions/${ownId}`, { token: tok(attacker) });
    expect(after.body.data.title).toBe("Mine now");
    expect(after.body.data.location).toBeNull();
    expect(leaks(after.body)).toEqual([]);

    // The victim's mission is unchanged.
    const theirs = await call(api.url, "GET", `/missions/${victimMission}`, { token: tok(victim) });
    expect(theirs.body.data).toMatchObject({ title: SECRET_TITLE, description: SECRET_TEXT, location: { ...secretPoint, precision: 0 } });
  });

  it("sends the parties' /ws frames and the dispute views of such a mission without the victim's details", async () => {
    const own = await chain.createMission(attacker as never, usdc(1));
    const ownId = mid(own.onChainId);
    const copied = await chain.escrow(attacker as never, "updateDetails", [own.onChainId, victimHash]);
    // The read model must hold the mission before the changes watched below: a row first projected
    // after them already shows the last state, and its insert is no news for the parties (a mission
    // without off-chain details). Right after the API starts on a fresh database the reactors are still
    // replaying the journal (the first file of a run), and the accept and submit outran them.
    await until("the read model to project the mission", () =>
      reactorPassed(api.server.deps.database.pool, api.server.env.CHAIN_SCHEMA, "discovery-read-model", copied.blockNumber));
    // The attacker watches over /ws: a party gets mission:updated (with the exact point) on each change.
    const frames: any[] = [];
    const ws = new WebSocket(`${api.url.replace("http", "ws")}/ws?token=${tok(attacker)}`);
    ws.on("message", (raw) => frames.push(JSON.parse(raw.toString())));
    await new Promise<void>((resolve, reject) => { ws.once("open", () => resolve()); ws.once("error", reject); });
    ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: geohashEncode(secretPoint.latitude, secretPoint.longitude, 5) } }));
    await chain.acceptAndSubmit(stranger as never, { onChainId: own.onChainId, detailsHash: victimHash });
    const updates = () => frames.filter((f) => f.event === "mission:updated" && f.data.missionId === ownId);
    const deadline = Date.now() + 10_000;
    // (A frame carries the mission as it is when sent: two quick changes may arrive as one.)
    while (updates().at(-1)?.data.mission.state !== "Submitted" && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ws.terminate();
    expect(updates().at(-1)?.data.mission.state, JSON.stringify(frames)).toBe("Submitted");
    expect(leaks(frames)).toEqual([]);
    await chain.escrow(attacker as never, "raiseDispute", [own.onChainId, attacker.address, `0x${"ab".repeat(32)}`]);
    const { rows } = await api.server.deps.database.pool.query(
      `SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".disputes WHERE mission_id = $1`, [mid(own.onChainId)]);
    const detail = await call(api.url, "GET", `/resolver/disputes/${rows[0].id}`);
    expect(detail.status).toBe(200);
    expect(leaks(detail.body)).toEqual([]);
    const list = await call(api.url, "GET", "/resolver/disputes?role=poster", { token: tok(attacker) });
    expect(list.body.disputes.map((d: any) => d.id)).toContain(rows[0].id);
    expect(leaks(list.body)).toEqual([]);
  });
});

describe("POST /missions/:id/verify-presence", () => {
  it("answers only the parties: a stranger gets 403 before any distance is computed or stored", async () => {
    const created = await call(api.url, "POST", "/missions", {
      token: tok(victim),
      body: { title: "Presence check", description: "x", rewardAmount: "1", category: "errands", expiresIn: 86_400, location: { ...secretPoint, radius: 50 } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    // Both keep location history (the default keeps none, which would hide a stored stranger's check).
    for (const u of [victim, stranger]) {
      const shared = await call(api.url, "PATCH", "/vault/permissions", {
        token: tok(u), body: { locationSharing: { enabled: true, precision: "exact", liveTrackingConsent: true } },
      });
      expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    }
    const history = async () =>
      (await api.server.deps.database.pool.query(`SELECT count(*)::int AS n FROM api.location_history WHERE mission_id = $1`, [id])).rows[0].n;
    // Three fixes around the point: with the distances, the hidden point would follow.
    for (const [dLat, dLng] of [[0.01, 0], [0, 0.01], [-0.01, -0.01]]) {
      const res = await call(api.url, "POST", `/missions/${id}/verify-presence`, {
        token: tok(stranger), body: { latitude: secretPoint.latitude + dLat!, longitude: secretPoint.longitude + dLng!, accuracy: 5 },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("FORBIDDEN");
      expect(JSON.stringify(res.body)).not.toMatch(/distance/i);
    }
    expect(await history()).toBe(0);
    const poster = await call(api.url, "POST", `/missions/${id}/verify-presence`, { token: tok(victim), body: { ...secretPoint, accuracy: 5 } });
    expect(poster.status).toBe(200);
    expect(poster.body).toMatchObject({ verified: true, withinGeofence: true });
    expect(await history()).toBe(1);
    for (const u of [victim, stranger]) {
      await call(api.url, "PATCH", "/vault/permissions", {
        token: tok(u), body: { locationSharing: { enabled: false, precision: "neighborhood", liveTrackingConsent: false } },
      });
    }
  });
});

describe("a copied dispute reason hash", () => {
  it("puts none of the victim's reason into the attacker's vault export", async () => {
    // The victim's dispute, raised through the API with a private reason.
    const m = await chain.createMission(victim as never, usdc(2));
    await chain.acceptAndSubmit(stranger as never, m);
    const raised = await call(api.url, "POST", `/missions/${mid(m.onChainId)}/dispute`, {
      token: tok(victim), body: { reason: SECRET_TEXT, evidence: `See ${SECRET_TITLE}` },
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const { rows } = await api.server.deps.database.pool.query(
      `SELECT reason_hash FROM "${api.server.env.CHAIN_SCHEMA}".disputes WHERE mission_id = $1`, [mid(m.onChainId)]);
    const reasonHash = rows[0].reason_hash as Hex; // public in DisputeRaised

    // The attacker raises its own dispute on chain with that hash.
    const own = await chain.createMission(attacker as never, usdc(1));
    await chain.acceptAndSubmit(stranger as never, own);
    await chain.escrow(attacker as never, "raiseDispute", [own.onChainId, attacker.address, reasonHash]);
    const exported = await call(api.url, "GET", "/vault/export", { token: tok(attacker) });
    const mine = exported.body.disputes ?? exported.body.data?.disputes;
    expect(mine.some((d: any) => d.missionId === mid(own.onChainId) && d.initiatedByMe), JSON.stringify(mine)).toBe(true);
    expect(leaks(exported.body)).toEqual([]);
    // The victim still reads their own reason.
    const theirs = await call(api.url, "GET", "/vault/export", { token: tok(victim) });
    const dispute = (theirs.body.disputes ?? theirs.body.data?.disputes).find((d: any) => d.missionId === mid(m.onChainId));
    expect(dispute.reason).toBe(SECRET_TEXT);
  });
});

describe("an evidence upload's body", () => {
  /** Streams `total` bytes chunked to the evidence path; resolves with the status (or the socket's end). */
  const upload = (token: string | undefined, total: number) =>
    new Promise<number | string>((resolve) => {
      const url = new URL(`${api.url}/resolver/disputes/00000000-0000-8000-8000-000000000000/evidence`);
      const req = http.request({
        host: url.hostname, port: url.port, path: url.pathname, method: "POST",
        headers: {
          "Content-Type": "multipart/form-data; boundary=x", "Transfer-Encoding": "chunked", "Idempotency-Key": `big-${Math.random()}`,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      });
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      let sent = 0;
      let done = false;
      const finish = (v: number | string) => {
        if (done) return;
        done = true;
        req.destroy();
        resolve(v);
      };
      req.on("response", (res) => {
        res.resume();
        finish(res.statusCode!);
      });
      req.on("error", (err) => finish((err as NodeJS.ErrnoException).code ?? err.message));
      const pump = () => {
        while (!done && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!done) req.end();
      };
      pump();
    });

  it("is never held whole: 1 GiB with and without a token leaves resident memory within 50 MiB", async () => {
    const GiB = 1024 ** 3;
    for (const token of [undefined, tok(stranger)]) {
      globalThis.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const status = await upload(token, GiB);
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(status, token ? "signed in: the 5 MiB limit" : "anonymous: refused unread").toBe(token ? 413 : 401);
      expect((peak - before) / 2 ** 20, `resident memory grew by ${((peak - before) / 2 ** 20).toFixed(1)} MiB`).toBeLessThan(50);
    }
  }, 120_000);
});

describe("JWT_SECRET", () => {
  it("is required on any chain but 31337: the published development secret would let anyone forge a token", async () => {
    const env = {
      NODE_ENV: "development", PORT: "0", DATABASE_URL: inject("databaseUrl"), RPC_URL: inject("rpcUrl"),
      DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", CHAIN_SCHEMA: api.server.env.CHAIN_SCHEMA,
      LOG_LEVEL: "silent", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false", WEBHOOKS_DISPATCH_ENABLED: "false", KEEPER_INTERVAL_MS: "0",
    };
    await expect(createServer({ overrides: { ...env, CHAIN_ID: "84532", JWT_SECRET: "" } })).rejects.toThrow(/JWT_SECRET/);
    // With a secret it starts; on the local chain the development secret stays allowed.
    for (const overrides of [{ CHAIN_ID: "84532", JWT_SECRET: "a-real-secret-a-real-secret-0123456789" }, { CHAIN_ID: "31337", JWT_SECRET: "" }]) {
      const server = await createServer({ overrides: { ...env, ...overrides } });
      await server.close();
    }
  });
});
