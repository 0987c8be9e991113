// Authorization matrix: every route of the real router is called by another user and by the right
// user or role (public routes also without a token, /v2 copies of public GETs too); status and error
// code must match security-matrix.ts (the spec and docs/decisions.md). The refusals before any
// handler (no token, expired, tampered) need no chain: test/http/authz-refusals.test.ts.
// Plus mass assignment: fields that must not be changeable are rejected (400 with the field) or
// ignored, checked by reading the state afterwards.
import type { Abi, Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { disputeUuid, missionUuid } from "../../domain/index.ts";
import { anvilAccount, RESOLVER_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type Res, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { MATRIX, type Fixture, type RouteSpec, type Who } from "./security-matrix.ts";

type Account = PrivateKeyAccount;
const accounts: Record<Who, Account> = {
  poster: anvilAccount(2) as unknown as Account,
  performer: anvilAccount(3) as unknown as Account,
  stranger: anvilAccount(4) as unknown as Account,
  curator: anvilAccount(1) as unknown as Account,
  resolver: anvilAccount(RESOLVER_ACCOUNT_INDEX) as unknown as Account,
  appeals: anvilAccount(0) as unknown as Account, // signs in only; never sends a transaction here
  poster2: anvilAccount(5) as unknown as Account,
  performer2: anvilAccount(6) as unknown as Account,
  vault1: privateKeyToAccount(generatePrivateKey()),
  vault2: privateKeyToAccount(generatePrivateKey()),
};

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
const tokens = {} as Record<Who, string>;
const f = { users: {} } as Fixture;

/**
 * The router's routes as `METHOD path`, and their /v2 copies: /v2 is routed as the unprefixed path
 * (api/routes/create-app.ts routedPath), so every route has one, called separately.
 */
function routeTable() {
  const seen = new Set<string>();
  for (const r of api.server.app.routes) {
    if (r.method === "ALL") continue; // middleware
    seen.add(`${r.method} ${r.path}`);
  }
  const base = [...seen];
  return { base, v2: base.map((k) => k.replace(" /", " /v2/")) };
}

async function send(method: string, spec: RouteSpec, token: string | undefined, who: Who, prefix = ""): Promise<Res> {
  const req = spec.req(f);
  if (req.body === "SIGN_IN") {
    // POST /auth/verify: a real sign-in of `who` (the token header, if any, is what is being tested).
    const acct = accounts[who];
    const m = await call(api.url, "POST", `${prefix}/auth/message`, { body: { address: acct.address } });
    const signature = m.status === 200 ? await acct.signMessage({ message: m.body.message }) : "0x00";
    return call(api.url, method, `${prefix}${req.path}`, { token, body: { address: acct.address, signature } });
  }
  if (req.form) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(req.form)) fd.append(k, v);
    const res = await fetch(`${api.url}${prefix}${req.path}`, {
      method, body: fd, headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    const text = await res.text();
    let body: any = text;
    try { body = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, body, headers: res.headers };
  }
  return call(api.url, method, `${prefix}${req.path}`, { token, body: req.body });
}

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ KEEPER_INTERVAL_MS: "0", EVIDENCE_DIR: `/tmp/authz-evidence-${Date.now()}` }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  const { chainId } = chain.deployment;
  const escrow = chain.c.MissionEscrow.address as Address;
  const mid = (onChainId: bigint) => missionUuid(chainId, escrow, onChainId);
  const did = (disputeId: bigint) => disputeUuid(chainId, escrow, disputeId);

  await Promise.all(
    (Object.keys(accounts) as Who[]).map(async (who) => {
      tokens[who] = await signIn(api.url, accounts[who]);
      const row = (await api.server.deps.repos.users.findByAddress(accounts[who].address))!;
      f.users[who] = { id: row.id, address: row.evmAddress };
    }),
  );
  const P = accounts.poster, W = accounts.performer, P2 = accounts.poster2, W2 = accounts.performer2;
  const reward = usdc(10);
  // Three groups of senders in parallel (never one account in two groups: nonces).
  const groupA = async () => {
    const created = await call(api.url, "POST", "/missions", {
      token: tokens.poster,
      body: { title: "Matrix open mission", description: "fixture", rewardAmount: "10", category: "test", expiresIn: 86_400, location: { latitude: 48.8566, longitude: 2.3522, radius: 200 } },
    });
    if (created.status !== 201) throw new Error(`POST /missions ${created.status} ${JSON.stringify(created.body)}`);
    f.missionOpen = created.body.data.id;
    f.missionToAccept = mid((await chain.createMission(P, reward)).onChainId);
    f.missionToCancel = mid((await chain.createMission(P, reward)).onChainId);
    const acc = await chain.createMission(P, reward);
    await chain.escrow(W, "acceptMission", [acc.onChainId, W.address, acc.detailsHash]);
    f.missionAccepted = mid(acc.onChainId);
    const sub = await chain.createMission(P, reward);
    await chain.acceptAndSubmit(W, sub);
    f.missionSubmitted = mid(sub.onChainId);
    const disp = await chain.createMission(P, reward);
    await chain.acceptAndSubmit(W, disp);
    f.missionToDispute = mid(disp.onChainId);
    f.missionCompleted = mid((await chain.completeMission(P, W, reward)).onChainId);
    f.disputePending = did((await chain.disputed(P, W, reward, P)).disputeId);
  };
  const groupB = async () => {
    // The resolver authorises the relayer (users 1..8 did at deployment).
    const relayer = api.server.deps.operator!; // the executor the pool forwards through
    await chain.send(accounts.resolver, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [relayer, true]);
    const inv = await chain.disputed(P2, W2, reward, P2);
    await chain.escrow(accounts.resolver, "takeDispute", [inv.disputeId, accounts.resolver.address]);
    f.disputeInvestigating = did(inv.disputeId);
    const res = await chain.disputed(P2, W2, reward, P2);
    await chain.resolve(res.disputeId, 1); // PosterWins
    f.disputeResolved = did(res.disputeId);
    const app = await chain.disputed(P2, W2, reward, P2);
    await chain.resolve(app.disputeId, 1);
    await chain.escrow(W2, "appealDispute", [app.disputeId, W2.address]);
    f.disputeAppealed = did(app.disputeId);
  };
  const groupC = async () => {
    const guild = await call(api.url, "GET", "/guilds/1");
    if (guild.status !== 200) throw new Error(`GET /guilds/1 ${guild.status}`);
    f.guild = guild.body.id;
    f.missionGuild = mid((await chain.createMission(accounts.curator, reward, { guildId: 1 })).onChainId);
  };
  await Promise.all([groupA(), groupB(), groupC()]);

  const hook = await call(api.url, "POST", "/webhooks", {
    token: tokens.poster,
    body: { url: "https://93.184.215.14/matrix-fixture", events: ["mission.accepted"] },
  });
  if (hook.status !== 201) throw new Error(`POST /webhooks ${hook.status} ${JSON.stringify(hook.body)}`);
  f.webhookOfPoster = hook.body.id;

  // The accept above notifies the poster (journal reactor).
  const deadline = Date.now() + 30_000;
  while (!f.notificationOfPoster) {
    const r = await api.server.deps.database.pool.query("SELECT id FROM api.notifications WHERE address = $1 ORDER BY created_at LIMIT 1", [f.users.poster.address]);
    if (r.rows[0]) f.notificationOfPoster = r.rows[0].id;
    else if (Date.now() > deadline) throw new Error("no notification for the poster");
    else await new Promise((r) => setTimeout(r, 200));
  }
});
afterAll(async () => {
  await api?.stop();
});

describe("authorization matrix", () => {
  it("status and code of every cell match the spec and the decisions", async () => {
    const off: string[] = [];
    let cells = 0;
    // The fixture's open mission is the poster's: nobody else may receive its exact point, in any
    // answer (presence, map, feed, lists, exports, profiles...).
    const exact = ["48.8566", "2.3522"];
    const check = (cell: string, res: Res, status: number, code?: string, who?: Who) => {
      cells++;
      if (who !== "poster") {
        const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body);
        for (const v of exact) if (text?.includes(v)) off.push(`${cell}: the body carries the poster's exact coordinate ${v}`);
      }
      const gotCode = res.body?.error?.code;
      const envelopeOk = status < 400 || (typeof gotCode === "string" && typeof res.body.error.message === "string");
      if (res.status !== status || (code && gotCode !== code) || !envelopeOk) {
        off.push(`${cell}: expected ${status}${code ? ` ${code}` : ""}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    };
    const { base, v2 } = routeTable();
    const rows = Object.keys(MATRIX).filter((k) => base.includes(k));
    // The cells refused before any handler (no token, expired, tampered) and the route-table check
    // need no chain: test/http/authz-refusals.test.ts.
    // In table order (the calls that reach handlers change state): anonymous calls of public
    // routes, the other user, the right user.
    for (const key of rows) {
      const spec = MATRIX[key]!;
      const method = key.split(" ")[0]!;
      const a = spec.access;
      const other = spec.other ?? "stranger";
      if (a.kind === "public") check(`${key} [no token]`, await send(method, spec, undefined, spec.right), spec.rightStatus, spec.rightCode, "stranger");
      const o = await send(method, spec, tokens[other], other);
      if (a.kind === "owner" || a.kind === "role") check(`${key} [other: ${other}]`, o, a.otherStatus, a.otherCode, other);
      else check(`${key} [other: ${other}]`, o, spec.rightStatus, spec.rightCode, other);
      const r = await send(method, spec, tokens[spec.right], spec.right);
      check(`${key} [right: ${spec.right}]`, r, spec.rightStatus, spec.rightCode, spec.right);
      if (key === "POST /ratings/mission/:missionId" && r.status === 201) f.ratingId = r.body.id ?? r.body.data?.id;
    }
    for (const k of v2) {
      const spec = MATRIX[k.replace(" /v2/", " /")];
      if (spec?.access.kind === "public" && k.startsWith("GET ")) {
        check(`${k} [no token]`, await send("GET", spec, undefined, spec.right, "/v2"), spec.rightStatus, spec.rightCode, "stranger");
      }
    }
    console.log(`authorization matrix: ${rows.length} routes (+${v2.length} /v2 copies), ${cells} cells, ${off.length} off`);
    expect(off).toEqual([]);
  });
});

describe("/ws frames to strangers", () => {
  it("carry a new mission's neighbourhood point, never its exact one (anonymous and signed-in strangers)", async () => {
    const point = { latitude: 48.8566 + Math.round(Math.random() * 1e4) / 1e6, longitude: 2.3522 + Math.round(Math.random() * 1e4) / 1e6 };
    const frames: { who: string; frame: any }[] = [];
    const sockets = await Promise.all(
      [undefined, tokens.stranger].map(async (token) => {
        const ws = new WebSocket(`${api.url.replace("http", "ws")}/ws${token ? `?token=${token}` : ""}`);
        ws.on("message", (raw) => frames.push({ who: token ? "stranger" : "anonymous", frame: JSON.parse(raw.toString()) }));
        await new Promise<void>((resolve, reject) => { ws.once("open", () => resolve()); ws.once("error", reject); });
        ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: geohashEncode(point.latitude, point.longitude, 4) } }));
        return ws;
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const created = await call(api.url, "POST", "/missions", {
      token: tokens.poster,
      body: { title: "Matrix ws mission", description: "x", rewardAmount: "1", category: "test", expiresIn: 86_400, location: { ...point, radius: 100 } },
    });
    expect(created.status).toBe(201);
    const deadline = Date.now() + 10_000;
    const got = () => frames.filter((f) => f.frame.event === "mission:created" && f.frame.data.mission?.id === created.body.data.id);
    while (got().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    for (const ws of sockets) ws.terminate();
    expect(got().map((f) => f.who).sort()).toEqual(["anonymous", "stranger"]);
    for (const f of got()) {
      expect(f.frame.data.mission.location.precision, f.who).toBeGreaterThan(0);
      expect(JSON.stringify(f.frame), f.who).not.toContain(String(point.latitude));
      expect(JSON.stringify(f.frame), f.who).not.toContain(String(point.longitude));
    }
  });
});

describe("mass assignment", () => {
  it("POST /missions ignores poster, performer, state and ids sent in the body", async () => {
    const res = await call(api.url, "POST", "/missions", {
      token: tokens.poster,
      body: {
        title: "Mass assignment", description: "x", rewardAmount: "2", category: "test", expiresIn: 3_600,
        poster: f.users.stranger.address, performer: f.users.stranger.address, posterId: f.users.stranger.id,
        state: "Completed", onChainId: "1", id: f.missionOpen, escrowAddress: f.users.stranger.address, rewardAmountUnits: "999999999",
      },
    });
    if (res.status === 400) return expect(res.body.error.details.length).toBeGreaterThan(0);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.id).not.toBe(f.missionOpen);
    const m = (await call(api.url, "GET", `/missions/${res.body.data.id}`)).body.data;
    expect(m.poster.evmAddress).toBe(f.users.poster.address);
    expect(m.performer).toBeNull();
    expect(m.state).toBe("Open");
    expect(m.rewardAmount).toMatch(/^2(\.0+)?$/);
  });

  it("PATCH /missions/:id rejects state, poster, performer, reward and expiry (400 with the field), nothing changes", async () => {
    const before = (await call(api.url, "GET", `/missions/${f.missionOpen}`, { token: tokens.poster })).body.data;
    for (const extra of [
      { state: "Cancelled" }, { poster: f.users.stranger.address }, { performer: f.users.stranger.address },
      { rewardAmount: "9999" }, { expiresAt: "2100-01-01T00:00:00Z" }, { expiresIn: 999_999 }, { guildId: f.guild }, { onChainId: "1" },
    ]) {
      const res = await call(api.url, "PATCH", `/missions/${f.missionOpen}`, { token: tokens.poster, body: { title: "Changed?", ...extra } });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(JSON.stringify(res.body.error.details)).toContain(Object.keys(extra)[0]!);
    }
    const after = (await call(api.url, "GET", `/missions/${f.missionOpen}`, { token: tokens.poster })).body.data;
    expect(after).toEqual(before);
  });

  it("PATCH /users/me rejects role, premium, address, XP and id (400 with the field), the row is unchanged", async () => {
    const q = () => api.server.deps.database.pool.query("SELECT * FROM api.users WHERE id = $1", [f.users.stranger.id]).then((r) => r.rows[0]);
    const before = await q();
    for (const extra of [
      { premium: true }, { role: "admin" }, { evmAddress: f.users.poster.address }, { id: f.users.poster.id },
      { totalXP: 1_000_000 }, { level: 25 }, { solanaAddress: "11111111111111111111111111111111" }, { createdAt: "2000-01-01T00:00:00Z" },
    ]) {
      const res = await call(api.url, "PATCH", "/users/me", { token: tokens.stranger, body: { displayName: "Escalated", ...extra } });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(JSON.stringify(res.body.error.details)).toContain(Object.keys(extra)[0]!);
    }
    const after = await q();
    expect({ ...after, last_active_at: null }).toEqual({ ...before, last_active_at: null });
  });

  it("vault, notification preferences and devices reject another user's id in the body", async () => {
    const perms = (await call(api.url, "GET", "/vault/permissions", { token: tokens.poster })).body;
    for (const [method, path, body] of [
      ["PATCH", "/vault/permissions", { userId: f.users.stranger.id, notifications: { marketing: true } }],
      ["PATCH", "/vault/permissions", { locationSharing: { enabled: true, userId: f.users.stranger.id } }],
      ["PATCH", "/notifications/preferences", { address: f.users.stranger.address, marketingUpdates: true }],
      ["POST", "/notifications/register-device", { platform: "ios", token: "t-mass", userId: f.users.stranger.id }],
      ["DELETE", "/vault/delete", { confirmation: "DELETE_ALL_MY_DATA", userId: f.users.stranger.id }],
    ] as const) {
      const res = await call(api.url, method, path, { token: tokens.poster, body });
      // Rejected (400 with the field) or, for the delete, at most the caller's own data.
      if (path === "/vault/delete") {
        expect([200, 400]).toContain(res.status);
        continue;
      }
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.details[0].field).toMatch(/^body/);
    }
    // The stranger's data is untouched by the poster's calls.
    const strangerUser = await api.server.deps.database.pool.query("SELECT display_name FROM api.users WHERE id = $1", [f.users.stranger.id]);
    expect(strangerUser.rows[0].display_name).not.toBe("");
    const permsAfter = (await call(api.url, "GET", "/vault/permissions", { token: tokens.stranger })).body;
    expect(JSON.stringify(permsAfter)).toContain('"marketing":false');
    expect(perms).toBeTruthy();
  });

  it("a dispute decision rejects a resolver or outcome smuggled in (strict body), the dispute is unchanged", async () => {
    const before = (await call(api.url, "GET", `/resolver/disputes/${f.disputePending}`)).body;
    const res = await call(api.url, "POST", `/resolver/disputes/${f.disputePending}/resolve`, {
      token: tokens.resolver,
      body: { outcome: "PerformerWins", resolution: "x", resolver: f.users.stranger.address, payout: { performer: "999" } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error.details)).toMatch(/resolver|payout/);
    expect((await call(api.url, "GET", `/resolver/disputes/${f.disputePending}`)).body).toEqual(before);
  });
});
