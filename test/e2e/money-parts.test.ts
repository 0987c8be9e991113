// Money in parts over the real stack: a partial release then an approval, refunds down to a
// cancellation, an Idempotency-Key replay, the webhooks, notifications and /ws frames of each change,
// and a poster who raised a dispute and won ending with exactly the balance they had before posting.
// Balances are read on chain and checked to the base unit (money-helpers.ts); fixtures are chain calls.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { disputeUuid } from "../../domain/index.ts";
import { geohashEncode } from "../../api/services/discovery/geo.ts";
import { call, reactorPassed, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, viewsDb } from "./indexer-helpers.ts";
import { dec, expectError, missionXp, moneyEnv, ok, RESOLVER_FEE, reserve, settle, type Party } from "./money-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let env: ReturnType<typeof moneyEnv>;
let db: ReturnType<typeof viewsDb>;
let poster: Party, performer: Party;
let receiver: http.Server;
const hooks: { event: string; data: Record<string, any> }[] = [];
const REWARD = 77_777_777n;

const get = (p: Party | null, path: string) => call(api.url, "GET", path, { token: p?.token });
const post = (p: Party, path: string, body?: unknown, headers?: Record<string, string>) => call(api.url, "POST", path, { token: p.token, body, headers });
const parties = () => ({ poster: poster.address, performer: performer.address });
const ledger = async (user: string, missionId: string) =>
  db.q<{ source: string; xp_delta: number }>(`SELECT source, xp_delta FROM $v.xp_ledger WHERE "user" = $1 AND mission_id = $2 ORDER BY key`, [user.toLowerCase(), missionId]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
/** The reactors (notifications, webhooks) have passed every journal entry up to the chain's head. */
const reactorsCaughtUp = async () => {
  const head = await chain.client.getBlockNumber();
  await until("the reactors", async () =>
    (await reactorPassed(api.server.deps.database.pool, api.server.env.CHAIN_SCHEMA, "notifications", head)) &&
    (await reactorPassed(api.server.deps.database.pool, api.server.env.CHAIN_SCHEMA, "webhooks", head)));
};

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c)).on("end", () => {
      hooks.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  chain = chainEnv();
  api = await startTestApi({ REACTORS_POLL_MS: "50", WEBHOOKS_ALLOW_PRIVATE_URLS: "true" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  db = viewsDb(api.server.env.CHAIN_SCHEMA);
  env = moneyEnv(chain, () => api);
  poster = await env.party();
  performer = await env.party(); // one at a time: the faucet account mints for each
  const port = (receiver.address() as { port: number }).port;
  expect((await post(poster, "/webhooks", {
    url: `http://127.0.0.1:${port}/hook`,
    events: ["mission.released", "mission.refunded", "mission.completed", "mission.cancelled", "mission.settlement_offered", "mission.settled"],
  })).status).toBe(201);
});
afterAll(async () => {
  await api?.stop();
  await db?.pool.end();
  receiver?.close();
});

describe("partial release", () => {
  it("release part while Accepted, then approve: each step paid as the rule says; XP and totals on the whole", async () => {
    const m = await env.mission(poster, performer, REWARD, "Accepted");
    const part = 10_500_001n;
    let before = await env.snapshot(parties());
    const r = ok(await post(poster, `/missions/${m.id}/release`, { amount: dec(part) })).data;
    const s1 = settle(part);
    expect(r.settlement).toEqual({
      performerAmount: dec(s1.performer), protocolAmount: dec(s1.treasury), guildAmount: "0.000000", labsAmount: dec(s1.labs), resolverAmount: dec(s1.pool),
    });
    expect(r.mission).toMatchObject({ state: "Accepted", releasedAmount: dec(part), refundedAmount: "0.000000", remainingAmount: dec(REWARD - part) });
    before = await env.expectMoved(before, parties(), {
      performer: s1.performer, protocolFees: s1.treasury, labsFees: s1.labs, escrow: -s1.performer, pool: s1.pool,
    });
    // The list view carries the same amounts.
    const listed = ok(await get(null, `/missions?posterId=${poster.address}&state=Accepted`)).data.find((x: any) => x.id === m.id);
    expect(listed).toMatchObject({ releasedAmount: dec(part), remainingAmount: dec(REWARD - part) });

    await chain.escrow(performer, "submitProof", [m.onChainId, `0x${"11".repeat(32)}`]);
    const rest = REWARD - part;
    const a = ok(await post(poster, `/missions/${m.id}/approve`)).data;
    const s2 = settle(rest);
    expect(a.settlement.performerAmount).toBe(dec(s2.performer));
    await env.expectMoved(before, parties(), { performer: s2.performer, protocolFees: s2.treasury, labsFees: s2.labs, escrow: -s2.performer, pool: s2.pool });
    expect(ok(await get(poster, `/missions/${m.id}`)).data).toMatchObject({ state: "Completed", releasedAmount: dec(part), remainingAmount: "0.000000" });
    expect((await ledger(performer.address, m.id)).find((e) => e.source === "mission_complete")?.xp_delta).toBe(missionXp(REWARD));
    const st = (await db.q(`SELECT total_earned::text, total_spent::text FROM $v.user_stats WHERE address = $1`, [performer.address.toLowerCase()]))[0]!;
    expect(BigInt(st.total_earned)).toBe(s1.performer + s2.performer);
    const sp = (await db.q(`SELECT total_spent::text FROM $v.user_stats WHERE address = $1`, [poster.address.toLowerCase()]))[0]!;
    expect(BigInt(sp.total_spent)).toBe(REWARD);

    await reactorsCaughtUp();
    await until("2 webhooks", async () => hooks.filter((h) => h.data.missionId === m.id).length >= 2);
    expect(hooks.filter((h) => h.data.missionId === m.id).map((h) => h.event)).toEqual(["mission.released", "mission.completed"]);
    expect(hooks.find((h) => h.event === "mission.released" && h.data.missionId === m.id)!.data).toMatchObject({
      amount: part.toString(), remainingAmount: rest.toString(), performerReceived: s1.performer.toString(),
    });
    const released = await until("the release notification", async () =>
      ok(await get(performer, "/notifications?type=MISSION_RELEASED")).notifications.find((n: any) => n.data.missionId === m.id));
    expect(released).toMatchObject({ type: "MISSION_RELEASED", data: { amount: part.toString() } });
  });

  it("the whole remainder released completes the mission; an Idempotency-Key replay pays once", async () => {
    const m = await env.mission(poster, performer, REWARD);
    const before = await env.snapshot(parties());
    const headers = { "Idempotency-Key": `release-${m.id}` };
    const first = ok(await post(poster, `/missions/${m.id}/release`, { amount: dec(REWARD) }, headers));
    const again = ok(await post(poster, `/missions/${m.id}/release`, { amount: dec(REWARD) }, headers));
    expect(again).toEqual(first);
    expect(first.data.mission).toMatchObject({ state: "Completed", releasedAmount: dec(REWARD), remainingAmount: "0.000000" });
    const s = settle(REWARD);
    await env.expectMoved(before, parties(), { performer: s.performer, protocolFees: s.treasury, labsFees: s.labs, escrow: -s.performer, pool: s.pool });
    expect((await ledger(performer.address, m.id)).find((e) => e.source === "mission_complete")?.xp_delta).toBe(missionXp(REWARD));
    expectError(await post(poster, `/missions/${m.id}/release`, { amount: "1" }), 409, "INVALID_STATE");
  });
});

describe("partial refund", () => {
  it("refund part, then the whole remainder: the poster has it all back, Cancelled, no XP", async () => {
    const m = await env.mission(poster, performer, REWARD);
    ok(await post(performer, `/missions/${m.id}/settlement`, { performerAmount: "1" })); // cleared by the refund
    let before = await env.snapshot(parties());
    const r1 = ok(await post(performer, `/missions/${m.id}/refund`, { amount: "7.000001" })).data;
    expect(r1.mission).toMatchObject({ state: "Submitted", refundedAmount: "7.000001", remainingAmount: dec(REWARD - 7_000_001n) });
    expect(ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers).toEqual([]);
    before = await env.expectMoved(before, parties(), { poster: 7_000_001n, escrow: -7_000_001n });
    const tooMuch = expectError(await post(performer, `/missions/${m.id}/refund`, { amount: dec(REWARD) }), 400, "VALIDATION_ERROR");
    expect(tooMuch.error.details[0]).toMatchObject({ field: "body.amount" });
    const r2 = ok(await post(performer, `/missions/${m.id}/refund`, { amount: dec(REWARD - 7_000_001n) })).data;
    expect(r2.mission).toMatchObject({ state: "Cancelled", refundedAmount: dec(REWARD), remainingAmount: "0.000000" });
    await env.expectMoved(before, parties(), { poster: REWARD - 7_000_001n, escrow: -(REWARD - 7_000_001n) });
    expect(await ledger(performer.address, m.id)).toEqual([]);

    await reactorsCaughtUp();
    await until("4 webhooks", async () => hooks.filter((h) => h.data.missionId === m.id).length >= 4);
    expect(hooks.filter((h) => h.data.missionId === m.id).map((h) => h.event)).toEqual([
      "mission.settlement_offered", "mission.refunded", "mission.refunded", "mission.cancelled",
    ]);
    expect(hooks.filter((h) => h.data.missionId === m.id).at(-1)!.data).toMatchObject({ via: "refund", refundAmount: (REWARD - 7_000_001n).toString() });
    const refunds = async () => ok(await get(poster, "/notifications?type=MISSION_REFUNDED")).notifications.filter((n: any) => n.data.missionId === m.id);
    await until("2 refund notifications", async () => (await refunds()).length >= 2);
    expect((await refunds()).map((n: any) => n.data.amount).sort()).toEqual(["7000001", (REWARD - 7_000_001n).toString()].sort());
    const offered = ok(await get(poster, "/notifications?type=SETTLEMENT_OFFERED")).notifications.filter((n: any) => n.data.missionId === m.id);
    expect(offered).toMatchObject([{ data: { by: "performer", performerAmount: "1000000" } }]);
  });
});

describe("/ws", () => {
  it("a party subscribed to the mission's area gets mission:updated for a release (no state change)", async () => {
    const spot = { latitude: 47.37 + Math.random() * 0.01, longitude: 8.54 + Math.random() * 0.01 };
    const created = await post(poster, "/missions", {
      title: "Paint a fence", description: "In parts", rewardAmount: dec(REWARD), category: "repair", expiresIn: 86_400, location: { ...spot, radius: 50 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    ok(await post(performer, `/missions/${id}/accept`));
    const ws = new WebSocket(`${api.url.replace("http", "ws")}/ws?token=${performer.token}`);
    const frames: { event: string; data: any }[] = [];
    ws.on("message", (raw) => frames.push(JSON.parse(raw.toString())));
    try {
      await until("ready", async () => frames.some((f) => f.event === "ready"));
      ws.send(JSON.stringify({ event: "subscribe:geohash", data: { geohash: geohashEncode(spot.latitude, spot.longitude, 5) } }));
      await until("subscribed", async () => frames.some((f) => f.event === "subscribed"));
      ok(await post(poster, `/missions/${id}/release`, { amount: "1" }));
      const upd = await until("mission:updated", async () => frames.find((f) => f.event === "mission:updated" && f.data.missionId === id));
      expect(upd.data).toMatchObject({ state: "Accepted", mission: { releasedAmount: "1.000000", remainingAmount: dec(REWARD - 1_000_000n) } });
    } finally {
      ws.terminate();
    }
  });
});

describe("a dispute the poster raised and won", () => {
  // Last in the file: it moves the chain's clock past the appeal window.
  it("leaves the poster with exactly the balance they had before posting", async () => {
    const p = await env.party(1_000_000_000n);
    const start = await env.balanceOf(p.address);
    const m = await env.mission(p, performer, REWARD);
    const raised = ok(await post(p, `/missions/${m.id}/dispute`, { reason: "Not done" })).data;
    expect(await env.balanceOf(p.address)).toBe(start - REWARD - reserve(REWARD));
    const poolBefore = await env.escrowRead<bigint>("resolverPool");
    const resolverBefore = await env.balanceOf(chain.resolver.address);
    await chain.escrow(chain.resolver, "takeDispute", [BigInt(raised.onChainDisputeId), chain.resolver.address]);
    await chain.escrow(chain.resolver, "resolveDispute", [BigInt(raised.onChainDisputeId), 1, 0, `0x${"ef".repeat(32)}`]);
    await chain.timeTravel(3 * 86_400 + 1);
    const id = disputeUuid(chain.deployment.chainId, chain.c.MissionEscrow.address, BigInt(raised.onChainDisputeId));
    const fin = await post(performer, `/resolver/disputes/${id}/finalize`);
    expect(fin.status, JSON.stringify(fin.body)).toBe(200);
    expect(await env.balanceOf(p.address)).toBe(start);
    // The resolver's pay came from the pool, not from the parties.
    const pay = poolBefore < RESOLVER_FEE ? poolBefore : RESOLVER_FEE;
    expect(await env.balanceOf(chain.resolver.address)).toBe(resolverBefore + pay);
    const d = ok(await get(null, `/resolver/disputes/${id}`));
    expect(d).toMatchObject({ outcome: "PosterWins", settledByAgreement: false, payout: { posterAmount: dec(REWARD + reserve(REWARD)), resolverAmount: dec(pay) } });
    expect(d.resolverPayment.status).toBe(pay === 0n ? "pool_empty" : pay === RESOLVER_FEE ? "paid" : "partial");
  });
});
