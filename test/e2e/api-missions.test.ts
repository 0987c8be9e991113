// The mission flow over HTTP with real wallets: anvil + Postgres + deployment (global-setup), the
// shared indexer (an own one when that is not ready) and the API. Users 1..8 are anvil's accounts the
// deployment funded, approved the escrow for and authorised the relayer (account 0) for.
import { type Abi, type Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi, operatorRegistryAbi } from "../../abis/index.ts";
import { MAX_REWARD_UNITS, formatAmount, parseAmount, operatorOf } from "../../domain/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
const users = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => anvilAccount(i));
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const [poster, performer, other] = [users[0]!, users[1]!, users[2]!];

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const newMission = (over: Record<string, unknown> = {}) => ({
  title: "Deliver a parcel",
  description: "Pick up at the bakery, drop at the station",
  rewardAmount: "12.5",
  category: "delivery",
  expiresIn: 3600,
  location: { latitude: 52.520008, longitude: 13.404954, radius: 150 },
  metadata: { size: "S" },
  ...over,
});
const create = async (who: { address: Address }, over: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  call(api.url, "POST", "/missions", { token: tok(who), body: newMission(over), headers });

/**
 * A fresh funded account that approved the relayer, signed in: for checks that must not depend on
 * what other e2e files did with the shared anvil accounts (guild memberships, missions posted).
 */
async function freshSignedIn(): Promise<PrivateKeyAccount> {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  tokens.set(u.address, await signIn(api.url, u));
  return u;
}

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({}, { indexer: "shared" });
  for (const u of users) tokens.set(u.address, await signIn(api.url, u));
});
afterAll(async () => {
  await api?.stop();
});

describe("system", () => {
  it("/health is 200 with the indexer caught up; /graphql proxies Ponder", async () => {
    const h = await call(api.url, "GET", "/health");
    expect(h.status, JSON.stringify(h.body)).toBe(200);
    expect(h.body.status).toBe("ok");
    // The feed index loads at start in the background (no /feed has run yet): ready within seconds.
    let fi = h.body.checks.feedIndex;
    for (let i = 0; i < 50 && !fi.ready; i++) {
      await new Promise((r) => setTimeout(r, 200));
      fi = (await call(api.url, "GET", "/health")).body.checks.feedIndex;
    }
    expect(fi).toEqual({ ready: true, missions: expect.any(Number) });
    const g = await call(api.url, "POST", "/graphql", { body: { query: "{ __typename }" } });
    expect(g.status).toBe(200);
    expect(g.body.data.__typename).toBe("Query");
  });
});

describe("mission flow", () => {
  it("create -> get -> patch -> accept -> submit -> approve", async () => {
    const c = await create(poster);
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const m = c.body.data;
    expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(m.onChainId).toMatch(/^\d+$/);
    expect(m.escrowAddress).toBe(chain.c.MissionEscrow.address.toLowerCase());
    expect(m.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(m).toMatchObject({ state: "Open", rewardAmount: "12.500000", title: "Deliver a parcel", category: "delivery" });
    expect(m.poster.evmAddress).toBe(poster.address.toLowerCase());

    // Read-your-writes: the next GET agrees. Others see the location rounded, the poster exactly.
    const pub = await call(api.url, "GET", `/missions/${m.id}`);
    expect(pub.body.data).toMatchObject({ id: m.id, state: "Open", ddrAmount: expect.stringMatching(/^\d+\.\d{6}$/), proofHash: null, acceptedAt: null });
    expect(pub.body.data.location).toEqual({ latitude: 52.517395, longitude: 13.408813, radius: 150, precision: 2 });
    const own = await call(api.url, "GET", `/v2/missions/${m.id}`, { token: tok(poster) });
    expect(own.body.data.location.latitude).toBe(52.520008);
    expect(own.body.data.metadata).toEqual({ size: "S" });

    const p = await call(api.url, "PATCH", `/missions/${m.id}`, { token: tok(poster), body: { title: "Deliver two parcels" } });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.data.title).toBe("Deliver two parcels");
    expect(p.body.data.description).toBe("Pick up at the bakery, drop at the station");
    expectError(await call(api.url, "PATCH", `/missions/${m.id}`, { token: tok(other), body: { title: "x" } }), 403, "NOT_POSTER");
    expectError(await call(api.url, "PATCH", `/missions/${m.id}`, { token: tok(poster), body: {} }), 400, "VALIDATION_ERROR");

    expectError(await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(poster) }), 403, "INELIGIBLE");
    const a = await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(performer) });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.data.success).toBe(true);
    expect(a.body.data.mission.state).toBe("Accepted");
    expect(a.body.data.mission.performer.evmAddress).toBe(performer.address.toLowerCase());
    expect(a.body.data.mission.acceptedAt).not.toBeNull();
    expectError(await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(other) }), 409, "ALREADY_ACCEPTED");
    expectError(await call(api.url, "POST", `/missions/${m.id}/cancel`, { token: tok(poster) }), 409, "MISSION_NOT_OPEN");
    expectError(await call(api.url, "PATCH", `/missions/${m.id}`, { token: tok(poster), body: { title: "late" } }), 409, "MISSION_NOT_OPEN");

    const proof = { proofType: "url", proofData: "https://example.org/proof.jpg", notes: "left at the door" };
    expectError(await call(api.url, "POST", `/missions/${m.id}/submit`, { token: tok(other), body: proof }), 403, "NOT_PERFORMER");
    expectError(await call(api.url, "POST", `/missions/${m.id}/submit`, { token: tok(performer), body: { ...proof, proofType: "fax" } }), 400, "VALIDATION_ERROR");
    const s = await call(api.url, "POST", `/missions/${m.id}/submit`, { token: tok(performer), body: proof });
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    expect(s.body.data.proofHash).toMatch(/^0x[0-9a-f]{64}$/);

    expectError(await call(api.url, "POST", `/missions/${m.id}/approve`, { token: tok(performer), body: {} }), 403, "NOT_POSTER");
    expectError(await call(api.url, "POST", `/missions/${m.id}/approve`, { token: tok(poster), body: { rating: 6 } }), 400, "VALIDATION_ERROR");
    const ap = await call(api.url, "POST", `/missions/${m.id}/approve`, { token: tok(poster), body: { rating: 5, feedback: "fast" } });
    expect(ap.status, JSON.stringify(ap.body)).toBe(200);
    const st = ap.body.data.settlement;
    const parts = ["performerAmount", "protocolAmount", "guildAmount", "labsAmount", "resolverAmount"].map((k) => {
      expect(st[k]).toMatch(/^\d+\.\d{6}$/);
      return parseAmount(st[k]);
    });
    expect(parts.reduce((x, y) => x + y, 0n)).toBe(usdc(12.5));
    // The 2.5 % protocol share (0.3125): 80 % to the treasury, 20 % into the resolver pool.
    expect(st.protocolAmount).toBe("0.250000");
    expect(st.resolverAmount).toBe("0.062500");
    const done = await call(api.url, "GET", `/missions/${m.id}`);
    expect(done.body.data.state).toBe("Completed");
    expect(done.body.data.completedAt).not.toBeNull();
    expect(done.body.data.proofHash).toBe(s.body.data.proofHash);
  });

  it("cancel: only the poster, only while Open; returns the refund", async () => {
    const m = (await create(poster, { rewardAmount: "3" })).body.data;
    expectError(await call(api.url, "POST", `/missions/${m.id}/cancel`, { token: tok(other) }), 403, "NOT_POSTER");
    const c = await call(api.url, "POST", `/missions/${m.id}/cancel`, { token: tok(poster) });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.data).toMatchObject({ success: true, refundAmount: "3.000000" });
    expectError(await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(performer) }), 409, "MISSION_NOT_OPEN");
    expect((await call(api.url, "GET", `/missions/${m.id}`)).body.data.state).toBe("Cancelled");
  });

  it("dispute: either party after submission; others are refused", async () => {
    const m = (await create(poster, { rewardAmount: "20" })).body.data;
    expectError(await call(api.url, "POST", `/missions/${m.id}/dispute`, { token: tok(poster), body: { reason: "early" } }), 409, "INVALID_STATE");
    await call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(performer) });
    await call(api.url, "POST", `/missions/${m.id}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } });
    expectError(await call(api.url, "POST", `/missions/${m.id}/dispute`, { token: tok(other), body: { reason: "x" } }), 403, "FORBIDDEN");
    expectError(await call(api.url, "POST", `/missions/${m.id}/dispute`, { token: tok(poster), body: {} }), 400, "VALIDATION_ERROR");
    const d = await call(api.url, "POST", `/missions/${m.id}/dispute`, { token: tok(poster), body: { reason: "not delivered", evidence: "ipfs://bafy" } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.data.success).toBe(true);
    expect(d.body.data.disputeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(d.body.data.onChainDisputeId).toMatch(/^\d+$/);
    expect((await call(api.url, "GET", `/missions/${m.id}`)).body.data.state).toBe("Disputed");
  });
});

describe("errors", () => {
  it("validation names the field and the reason", async () => {
    const r = await create(poster, { title: "x".repeat(101), rewardAmount: "1.0000001", expiresIn: 5 });
    expectError(r, 400, "VALIDATION_ERROR");
    const fields = r.body.error.details.map((d: any) => d.field).sort();
    expect(fields).toEqual(["body.expiresIn", "body.rewardAmount", "body.title"]);
    for (const bad of ["-1", "1e3", "0", "18446744073709.551616"]) {
      expectError(await create(poster, { rewardAmount: bad }), 400, "VALIDATION_ERROR");
    }
    // The escrow's MAX_REWARD is the API's limit: one unit above it is refused before anything is sent.
    const max = (await chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "MAX_REWARD" })) as bigint;
    expect(max).toBe(MAX_REWARD_UNITS);
    const above = await create(poster, { rewardAmount: formatAmount(max + 1n) });
    expectError(above, 400, "VALIDATION_ERROR");
    expect(above.body.error.details).toEqual([expect.objectContaining({ field: "body.rewardAmount", reason: "must be at most 281474976.710655" })]);
    expectError(await call(api.url, "GET", "/missions?take=101"), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "GET", "/missions?minReward=abc"), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "GET", "/missions?sortBy=title"), 400, "VALIDATION_ERROR");
  });

  it("unknown missions are MISSION_NOT_FOUND", async () => {
    expectError(await call(api.url, "GET", "/missions/00000000-0000-8000-8000-000000000000"), 404, "MISSION_NOT_FOUND");
    expectError(await call(api.url, "POST", "/missions/nope/accept", { token: tok(performer) }), 404, "MISSION_NOT_FOUND");
  });

  it("INSUFFICIENT_BALANCE before anything is sent", async () => {
    const poor = await chain.freshUser(usdc(1));
    await chain.send(poor, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
    const token = await signIn(api.url, poor);
    const r = await call(api.url, "POST", "/missions", { token, body: newMission({ rewardAmount: "5" }) });
    expectError(r, 422, "INSUFFICIENT_BALANCE");
  });

  it("INELIGIBLE: a guild mission needs guild membership", async () => {
    const viaDb = await api.server.deps.database.pool.query(`SELECT id FROM "${api.server.env.CHAIN_SCHEMA}".guilds WHERE name = 'demo-guild'`);
    const guildId: string | undefined = viaDb.rows[0]?.id;
    expect(guildId, "the local deployment creates demo-guild").toBeDefined();
    const m = await create(poster, { guildId, rewardAmount: "2" });
    expect(m.status, JSON.stringify(m.body)).toBe(201);
    expect(m.body.data.guild).toMatchObject({ id: guildId, name: "demo-guild" });
    const outsider = await freshSignedIn(); // never joined the guild (anvil accounts may have, in other files)
    expectError(await call(api.url, "POST", `/missions/${m.body.data.id}/accept`, { token: tok(outsider) }), 403, "INELIGIBLE");
    expectError(await create(poster, { guildId: "00000000-0000-8000-8000-000000000000" }), 400, "VALIDATION_ERROR");
  });

  it("CHAIN_UNAVAILABLE when the RPC is down", async () => {
    const down = await startTestApi({ RPC_URL: "http://127.0.0.1:9" });
    try {
      const token = await signIn(down.url, poster);
      expectError(await call(down.url, "POST", "/missions", { token, body: newMission() }), 503, "CHAIN_UNAVAILABLE");
    } finally {
      await down.stop();
    }
  });
});

describe("lists", () => {
  it("filters, sorts and pages with { data, meta }", async () => {
    const lister = await freshSignedIn(); // its only missions are these three
    const me = (await api.server.deps.repos.users.findByAddress(lister.address))!;
    for (const r of ["1", "3", "2"]) expect((await create(lister, { rewardAmount: r, category: "Cleaning" })).status).toBe(201);
    const res = await call(api.url, "GET", `/missions?posterId=${me.id}&state=Open&category=cleaning&sortBy=rewardAmount&sortOrder=asc&take=2`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta).toEqual({ skip: 0, take: 2, total: 3 });
    expect(res.body.data.map((m: any) => m.rewardAmount)).toEqual(["1.000000", "2.000000"]);
    const next = await call(api.url, "GET", `/missions?posterId=${me.id}&category=cleaning&sortBy=rewardAmount&sortOrder=asc&skip=2&take=2`);
    expect(next.body.data.map((m: any) => m.rewardAmount)).toEqual(["3.000000"]);
    const range = await call(api.url, "GET", `/missions?posterId=${me.id}&minReward=1.5&maxReward=2.5`);
    expect(range.body.data.map((m: any) => m.rewardAmount)).toEqual(["2.000000"]);
    const def = await call(api.url, "GET", "/missions");
    expect(def.body.meta.take).toBe(20);
  });
});

describe("chain first", () => {
  it("a mission created directly on-chain appears with its chain fields and empty details", async () => {
    const direct = await chain.freshUser();
    const m = await chain.createMission(direct, usdc(7));
    await api.follows!.waitForBlock(m.receipt.blockNumber);
    const list = await call(api.url, "GET", `/missions?posterId=${direct.address}`);
    expect(list.body.meta.total).toBe(1);
    const item = list.body.data[0];
    expect(item).toMatchObject({ onChainId: m.onChainId.toString(), state: "Open", rewardAmount: "7.000000", title: "", description: "", category: "", location: null });
    expect(item.poster).toMatchObject({ id: direct.address.toLowerCase(), evmAddress: direct.address.toLowerCase() });
    const one = await call(api.url, "GET", `/missions/${item.id}`);
    expect(one.body.data).toMatchObject({ id: item.id, metadata: {}, proofHash: null });
  });
});

describe("idempotency", () => {
  it("same key + same body replays; another body is refused; no second transaction", async () => {
    const key = `create-${Date.now()}`;
    const first = await create(users[4]!, { rewardAmount: "4" }, { "Idempotency-Key": key });
    expect(first.status).toBe(201);
    const again = await create(users[4]!, { rewardAmount: "4" }, { "Idempotency-Key": key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expectError(await create(users[4]!, { rewardAmount: "5" }, { "Idempotency-Key": key }), 422, "IDEMPOTENCY_KEY_REUSED");
    // Another user may use the same key: keys are per user.
    expect((await create(users[5]!, { rewardAmount: "4" }, { "Idempotency-Key": key })).status).toBe(201);
  });

  it("a concurrent duplicate in flight gets 409 IDEMPOTENCY_KEY_IN_USE", async () => {
    const key = `race-${Date.now()}`;
    const results = await Promise.all([0, 1, 2].map(() => create(users[6]!, { rewardAmount: "1" }, { "Idempotency-Key": key })));
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.data.transactionHash)).size).toBe(1);
    for (const r of results.filter((r) => r.status !== 201)) expectError(r, 409, "IDEMPOTENCY_KEY_IN_USE");
  });
});

describe("concurrency", () => {
  it("50 parallel creates by 8 users all succeed with distinct missions (no nonce errors)", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(users[i % 8]!, { rewardAmount: "1", title: `parallel ${i}` })),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(new Set(results.map((r) => r.body.data.onChainId)).size).toBe(50);
    expect(new Set(results.map((r) => r.body.data.transactionHash)).size).toBe(50);
  });

  it("two API copies share one relayer without nonce collisions", async () => {
    const second = await startTestApi({ INDEXER_URL: api.follows!.url, CHAIN_SCHEMA: api.server.env.CHAIN_SCHEMA });
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(i % 2 ? second.url : api.url, "POST", "/missions", {
            token: tok(users[i % 8]!),
            body: newMission({ rewardAmount: "1", title: `two copies ${i}` }),
          }),
        ),
      );
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(new Set(results.map((r) => r.body.data.onChainId)).size).toBe(20);
    } finally {
      await second.stop();
    }
  });

  it("a 10-way accept race has exactly one winner", async () => {
    // Ten fresh accounts: the shared anvil accounts carry whatever other e2e files left on them.
    const racers: PrivateKeyAccount[] = [];
    for (let i = 0; i < 10; i++) racers.push(await freshSignedIn());
    expect(racers).toHaveLength(10);
    const m = (await create(poster, { rewardAmount: "1" })).body.data;
    const results = await Promise.all(racers.map((u) => call(api.url, "POST", `/missions/${m.id}/accept`, { token: tok(u) })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(["ALREADY_ACCEPTED", "MISSION_NOT_OPEN"]).toContain(r.body.error.code);
    }
  });
});
