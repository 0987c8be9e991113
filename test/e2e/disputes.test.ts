// Disputes over HTTP with real wallets: anvil + Postgres + deployment + the shared indexer
// (global-setup) and the API. Every outcome's token movements are checked to the base
// unit against amounts computed here from docs/decisions.md (not from the contract's math).
import { createHash } from "node:crypto";
import { type Abi, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi, operatorRegistryAbi, testStablecoinAbi } from "../../abis/index.ts";
import { anvilAccount, RESOLVER_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
const poster = anvilAccount(1), performer = anvilAccount(2), other = anvilAccount(3), appeals = anvilAccount(7);
const resolver = anvilAccount(RESOLVER_ACCOUNT_INDEX);
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;
const DAY = 86_400;
/** Chain time once the other files' disputes were settled: reads below look only at this file's. */
let settledBefore = 0;
// Balances are checked to the unit: other files' missions that the clock moves past their deadlines
// must not be settled (fees accrued for the treasuries) inside a measured window.
const DISPUTES_ONLY = { disputes: true };
const REWARD = 123_456_789n; // 123.456789 USDC: odd, so every rounding rule shows
const ID_RE = /^[0-9a-f-]{36}$/;

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};
const ok = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

// ---- the rules of docs/decisions.md, independently ----
const bps = (x: bigint, b: bigint) => (x * b) / 10_000n;
const reserve = (reward: bigint) => (bps(reward, 500n) > 1_000_000n ? bps(reward, 500n) : 1_000_000n);
type Outcome = "PosterWins" | "PerformerWins" | "Split" | "Cancelled";
function expectedPayout(o: {
  outcome: Outcome; split?: number; decided: boolean; initiatorIsPoster: boolean;
  appeal?: { appellantIsPoster: boolean; upheld: boolean };
}, poolBefore: bigint) {
  // Fees only on the performer's part, settled as on approval (20 % of the protocol share into the
  // resolver pool); the resolver who decided is paid min(5 USDC, pool) from the pool, which this
  // dispute's own share has just funded.
  const part = o.outcome === "PerformerWins" ? REWARD : o.outcome === "Split" ? (REWARD * BigInt(o.split!)) / 100n : 0n;
  const protocolShare = bps(part, 250n), labs = bps(part, 100n);
  const poolShare = bps(protocolShare, 2_000n);
  const protocol = protocolShare - poolShare;
  let posterAmount = REWARD - part, performerAmount = part - protocolShare - labs;
  const ddr = reserve(REWARD);
  const winner = o.outcome === "PosterWins" ? "poster" : o.outcome === "PerformerWins" ? "performer" : null;
  const initiator = o.initiatorIsPoster ? "poster" : "performer";
  const ddrTo = winner && winner !== initiator ? winner : initiator;
  if (ddrTo === "poster") posterAmount += ddr;
  else performerAmount += ddr;
  if (o.appeal) {
    const appellant = o.appeal.appellantIsPoster ? "poster" : "performer";
    const lppTo = o.appeal.upheld ? (appellant === "poster" ? "performer" : "poster") : appellant;
    if (lppTo === "poster") posterAmount += reserve(REWARD);
    else performerAmount += reserve(REWARD);
  }
  const pool = poolBefore + poolShare;
  const resolverAmount = o.decided ? (pool < RESOLVER_FEE ? pool : RESOLVER_FEE) : 0n;
  return { posterAmount, performerAmount, protocol, labs, resolverAmount };
}
const RESOLVER_FEE = 5_000_000n;
const resolverPool = () =>
  chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "resolverPool" }) as Promise<bigint>;
/** The protocol and labs fees accrued in the escrow (issue 40: a payout accrues them; withdrawFees pays them). */
const accruedFees = () =>
  chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "accruedFees" }) as Promise<readonly [bigint, bigint]>;

async function balances(addresses: Address[]) {
  const out = new Map<string, bigint>();
  for (const a of addresses) {
    out.set(a.toLowerCase(), (await chain.client.readContract({
      address: chain.c.Stablecoin.address, abi: testStablecoinAbi, functionName: "balanceOf", args: [a],
    })) as bigint);
  }
  return out;
}

let treasuries: Address[] = [];
/** A Submitted mission disputed over the API; balances taken right before the dispute. */
async function disputedMission(initiator: typeof poster) {
  const c = await call(api.url, "POST", "/missions", {
    token: tok(poster),
    body: { title: "Fix a bike", description: "Flat tyre", rewardAmount: "123.456789", category: "repair", expiresIn: 3600 },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  const missionId = c.body.data.id as string;
  ok(await call(api.url, "POST", `/missions/${missionId}/accept`, { token: tok(performer) }));
  ok(await call(api.url, "POST", `/missions/${missionId}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } }));
  const who = [poster.address, performer.address, resolver.address, appeals.address, ...treasuries];
  const before = await balances(who);
  const pool = await resolverPool();
  const fees = await accruedFees();
  const d = ok(await call(api.url, "POST", `/missions/${missionId}/dispute`, { token: tok(initiator), body: { reason: "disagree" } }));
  return { missionId, id: d.data.disputeId as string, before, who, pool, fees };
}

/**
 * Every party's balance change since before the dispute equals payout minus deposits paid; the treasuries'
 * balances do not move, their shares accrue in the escrow.
 */
async function expectBalances(
  s: Awaited<ReturnType<typeof disputedMission>>,
  p: ReturnType<typeof expectedPayout>,
  deposits: { poster?: bigint; performer?: bigint },
  resolverPaid: Address | null,
) {
  const after = await balances(s.who);
  const delta = new Map<string, bigint>(s.who.map((a) => [a.toLowerCase(), 0n]));
  const add = (a: Address, v: bigint) => delta.set(a.toLowerCase(), delta.get(a.toLowerCase())! + v);
  add(poster.address, p.posterAmount - (deposits.poster ?? 0n));
  add(performer.address, p.performerAmount - (deposits.performer ?? 0n));
  if (resolverPaid) add(resolverPaid, p.resolverAmount);
  for (const a of s.who) {
    const k = a.toLowerCase();
    expect(after.get(k)! - s.before.get(k)!, `balance change of ${k}`).toBe(delta.get(k));
  }
  const fees = await accruedFees();
  expect(fees[0] - s.fees[0], "protocol fees accrued").toBe(p.protocol);
  expect(fees[1] - s.fees[1], "labs fees accrued").toBe(p.labs);
  // The API shows the same payout.
  const d = ok(await call(api.url, "GET", `/resolver/disputes/${s.id}`));
  const units = (x: string) => BigInt(x.replace(".", ""));
  expect(units(d.payout.posterAmount)).toBe(p.posterAmount);
  expect(units(d.payout.performerAmount)).toBe(p.performerAmount);
  expect(units(d.payout.resolverAmount)).toBe(p.resolverAmount);
  return d;
}

const take = (id: string, who = resolver) => call(api.url, "POST", `/resolver/disputes/${id}/take`, { token: tok(who) });
const resolve = (id: string, outcome: Outcome, splitPercentage?: number, who = resolver) =>
  call(api.url, "POST", `/resolver/disputes/${id}/resolve`, { token: tok(who), body: { outcome, splitPercentage, resolution: `Decided ${outcome}` } });
const finalize = (id: string) => call(api.url, "POST", `/resolver/disputes/${id}/finalize`, { token: tok(other) });

const stats = async (who: Address) => ok(await call(api.url, "GET", `/resolver/stats/${who.toLowerCase()}`));
let statsBefore: Record<string, any>;

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({ KEEPER_INTERVAL_MS: "0", EVIDENCE_DIR: `/tmp/evidence-${Date.now()}` }, { indexer: "shared" });
  const relayer = api.server.deps.operator!; // the executor the pool forwards through
  // The resolver authorises the relayer (as users 1..8 did at deployment); the admin names an
  // appeals resolver.
  await chain.send(resolver, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [relayer, true]);
  const appealsRole = await chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "APPEALS_ROLE" });
  await chain.escrow(chain.faucet, "grantRole", [appealsRole, appeals.address]);
  treasuries = await Promise.all(
    (["protocolTreasury", "labsTreasury"] as const).map((fn) =>
      chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: fn }) as Promise<Address>,
    ),
  );
  for (const u of [poster, performer, other, appeals, resolver]) tokens.set(u.address, await signIn(api.url, u));
  // Earlier files leave disputes and missions on the shared chain, with the same parties and treasuries.
  // Move past every deadline they can have and let the keeper settle them now, so that the passes below
  // (and the balances they measure) see only this file's own.
  await chain.timeTravel(31 * DAY + 1);
  for (let pass = 0; pass < 10; pass++) {
    const k = await api.server.deps.keeper.tick();
    const acted = [...k.missions.expired, ...k.missions.released, ...k.disputes.finalized, ...k.disputes.released];
    if (acted.length === 0) break;
  }
  settledBefore = Number((await chain.client.getBlock()).timestamp);
  statsBefore = await stats(poster.address);
});
afterAll(async () => {
  await api?.stop();
});

describe("dispute lifecycle", () => {
  it("PosterWins, evidence rules, reads; the appeal window lapses and finalize pays out", async () => {
    const s = await disputedMission(performer);
    const url = `/resolver/disputes/${s.id}`;
    const d0 = ok(await call(api.url, "GET", url));
    expect(d0).toMatchObject({
      id: s.id, missionId: s.missionId, state: "Pending", outcome: "None", resolver: null, ddrAmount: Number(reserve(REWARD)),
      lppAmount: 0, onChainId: expect.stringMatching(/^\d+$/), escrowAddress: chain.c.MissionEscrow.address.toLowerCase(),
      posterEvidenceHash: null, performerEvidenceHash: null, resolutionHash: null, resolvedAt: null, appealDeadline: null,
      finalizedAt: null, splitPercentage: null,
    });
    expect(d0.poster).toEqual({ id: expect.stringMatching(ID_RE), evmAddress: poster.address.toLowerCase(), displayName: expect.any(String) });
    expect(d0.initiator.evmAddress).toBe(performer.address.toLowerCase());
    expect(d0.mission).toBeUndefined();

    // Evidence: only that side's party, sniffed type, 5 MiB.
    const upload = (who: typeof poster, type: string, bytes: Uint8Array | null, token = tok(who)) => {
      const form = new FormData();
      if (bytes) form.set("evidence", new Blob([bytes]), "e.bin");
      form.set("type", type);
      return fetch(`${api.url}${url}/evidence`, { method: "POST", body: form, headers: token ? { Authorization: `Bearer ${token}` } : {} })
        .then(async (r) => ({ status: r.status, body: await r.json() }));
    };
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    expectError(await upload(poster, "performer", png), 403, "NOT_PARTY");
    expectError(await upload(other, "poster", png), 403, "NOT_PARTY");
    expectError(await upload(poster, "poster", png, ""), 401, "UNAUTHORIZED");
    expectError(await upload(poster, "poster", null), 400, "VALIDATION_ERROR");
    expectError(await upload(poster, "judge", png), 400, "VALIDATION_ERROR");
    expectError(await upload(poster, "poster", new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 0xff, 0xfe])), 415, "UNSUPPORTED_MEDIA_TYPE");
    const big = new Uint8Array(5 * 1024 * 1024 + 1).fill(0x61); // valid text, one byte too many
    expectError(await upload(poster, "poster", big), 413, "PAYLOAD_TOO_LARGE");
    const huge = new Uint8Array(6 * 1024 * 1024).fill(0x61);
    expectError(await upload(poster, "poster", huge), 413, "PAYLOAD_TOO_LARGE");
    const text = new TextEncoder().encode("The tyre is still flat.\n");
    const up = await upload(performer, "performer", text);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const sha = `0x${createHash("sha256").update(text).digest("hex")}`;
    expect(up.body).toMatchObject({ success: true, evidenceHash: sha, message: expect.any(String) });
    ok(await upload(poster, "poster", png));
    const d1 = ok(await call(api.url, "GET", url));
    expect(d1.performerEvidenceHash).toBe(sha);
    expect(d1.posterEvidenceHash).toBe(`0x${createHash("sha256").update(png).digest("hex")}`);
    const get = (who: typeof poster | null, type: string) =>
      fetch(`${api.url}${url}/evidence?type=${type}`, { headers: who ? { Authorization: `Bearer ${tok(who)}` } : {} });
    const g = await get(poster, "performer");
    expect(g.status).toBe(200);
    expect(g.headers.get("content-type")).toBe("text/plain");
    expect(new Uint8Array(await g.arrayBuffer())).toEqual(text);
    expect((await get(other, "performer")).status).toBe(403);
    expect((await get(null, "performer")).status).toBe(401);
    expect((await get(poster, "../../etc/passwd")).status).toBe(400);

    // Queue and role rules of the actions.
    expect(ok(await call(api.url, "GET", "/resolver/queue")).disputes.map((x: any) => x.id)).toContain(s.id);
    expectError(await take(s.id, other), 403, "NOT_RESOLVER");
    expectError(await take(s.id, poster), 403, "NOT_RESOLVER");
    expectError(await resolve(s.id, "PosterWins"), 403, "NOT_RESOLVER");
    const t = ok(await take(s.id));
    expect(t.dispute).toMatchObject({ state: "Investigating", resolver: { evmAddress: resolver.address.toLowerCase() } });
    expect(ok(await call(api.url, "GET", `/resolver/queue/resolver/${resolver.address.toLowerCase()}`)).disputes.map((x: any) => x.id)).toContain(s.id);
    expectError(await take(s.id), 409, "INVALID_DISPUTE_STATE");
    expectError(await resolve(s.id, "Split"), 400, "VALIDATION_ERROR");
    expectError(await resolve(s.id, "PosterWins", 30), 400, "VALIDATION_ERROR");
    expectError(await resolve(s.id, "PosterWins", undefined, other), 403, "NOT_RESOLVER");
    const r = ok(await resolve(s.id, "PosterWins"));
    expect(r.dispute).toMatchObject({ state: "Resolved", outcome: "PosterWins", resolutionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(r.dispute.resolvedAt).not.toBeNull();
    expect(r.dispute.appealDeadline).not.toBeNull();
    expectError(await upload(performer, "performer", text), 409, "INVALID_DISPUTE_STATE");
    expectError(await call(api.url, "POST", `${url}/appeal`, { token: tok(other) }), 403, "NOT_PARTY");
    expectError(await finalize(s.id), 409, "DEADLINE_NOT_REACHED");

    await chain.timeTravel(3 * DAY + 1);
    const f = ok(await finalize(s.id));
    expect(f.dispute).toMatchObject({ state: "Finalized", outcome: "PosterWins", missionState: "Cancelled", byDefault: false });
    expect(f.dispute.finalizedAt).not.toBeNull();
    await expectBalances(s, expectedPayout({ outcome: "PosterWins", decided: true, initiatorIsPoster: false }, s.pool), { performer: reserve(REWARD) }, resolver.address);
    expect(ok(await call(api.url, "GET", `/missions/${s.missionId}`)).data.state).toBe("Cancelled");
    expectError(await finalize(s.id), 409, "INVALID_DISPUTE_STATE");
  });

  it("PerformerWins, finalized by the keeper after the appeal window", async () => {
    const s = await disputedMission(poster);
    ok(await take(s.id));
    ok(await resolve(s.id, "PerformerWins"));
    expect((await api.server.deps.keeper.tick(DISPUTES_ONLY)).disputes.finalized).toEqual([]);
    await chain.timeTravel(3 * DAY + 1);
    const onChainId = ok(await call(api.url, "GET", `/resolver/disputes/${s.id}`)).onChainId;
    const k = await api.server.deps.keeper.tick(DISPUTES_ONLY);
    expect(k.leader).toBe(true);
    expect(k.disputes.finalized).toContain(onChainId);
    const d = await expectBalances(s, expectedPayout({ outcome: "PerformerWins", decided: true, initiatorIsPoster: true }, s.pool), { poster: reserve(REWARD) }, resolver.address);
    expect(d).toMatchObject({ state: "Finalized", missionState: "Completed" });
    expect(ok(await call(api.url, "GET", `/missions/${s.missionId}`)).data.state).toBe("Completed");
  });

  it("Split 30/70 (performer 70 % of the net reward)", async () => {
    const s = await disputedMission(performer);
    ok(await take(s.id));
    const r = ok(await resolve(s.id, "Split", 70));
    expect(r.dispute).toMatchObject({ outcome: "Split", splitPercentage: 70 });
    await chain.timeTravel(3 * DAY + 1);
    ok(await finalize(s.id));
    await expectBalances(s, expectedPayout({ outcome: "Split", split: 70, decided: true, initiatorIsPoster: false }, s.pool), { performer: reserve(REWARD) }, resolver.address);
  });

  it("Cancelled: the poster gets the net reward back, the DDR is refunded", async () => {
    const s = await disputedMission(poster);
    ok(await take(s.id));
    ok(await resolve(s.id, "Cancelled"));
    await chain.timeTravel(3 * DAY + 1);
    const f = ok(await finalize(s.id));
    expect(f.dispute.missionState).toBe("Cancelled");
    await expectBalances(s, expectedPayout({ outcome: "Cancelled", decided: true, initiatorIsPoster: true }, s.pool), { poster: reserve(REWARD) }, resolver.address);
  });

  it("an appeal overturns PosterWins to PerformerWins; the LPP goes back to the appellant", async () => {
    const s = await disputedMission(performer);
    ok(await take(s.id));
    ok(await resolve(s.id, "PosterWins"));
    const decide = (who: typeof poster, outcome: Outcome) =>
      call(api.url, "POST", `/resolver/disputes/${s.id}/appeal/decide`, { token: tok(who), body: { outcome, resolution: "On appeal" } });
    expectError(await decide(appeals, "PerformerWins"), 409, "INVALID_DISPUTE_STATE");
    const a = ok(await call(api.url, "POST", `/resolver/disputes/${s.id}/appeal`, { token: tok(performer) }));
    expect(a.dispute).toMatchObject({ state: "Appealed", lppAmount: Number(reserve(REWARD)), appellant: performer.address.toLowerCase() });
    expectError(await call(api.url, "POST", `/resolver/disputes/${s.id}/appeal`, { token: tok(poster) }), 409, "INVALID_DISPUTE_STATE");
    expectError(await decide(other, "PerformerWins"), 403, "NOT_APPEALS_RESOLVER");
    expectError(await decide(resolver, "PerformerWins"), 403, "NOT_APPEALS_RESOLVER");
    const d = ok(await decide(appeals, "PerformerWins"));
    expect(d.dispute).toMatchObject({ state: "Finalized", outcome: "PerformerWins", appealOverturned: true, missionState: "Completed" });
    await expectBalances(
      s,
      expectedPayout({ outcome: "PerformerWins", decided: true, initiatorIsPoster: false, appeal: { appellantIsPoster: false, upheld: false } }, s.pool),
      { performer: 2n * reserve(REWARD) },
      resolver.address,
    );
  });

  it("a resolver who never acts: released after the deadline, then the default outcome after the timeout", async () => {
    const s = await disputedMission(poster);
    ok(await take(s.id));
    expectError(await call(api.url, "POST", `/resolver/disputes/${s.id}/release`, { token: tok(other) }), 409, "DEADLINE_NOT_REACHED");
    await chain.timeTravel(3 * DAY + 1);
    expectError(await resolve(s.id, "PosterWins"), 409, "DEADLINE_PASSED");
    const k = await api.server.deps.keeper.tick(DISPUTES_ONLY);
    const onChainId = ok(await call(api.url, "GET", `/resolver/disputes/${s.id}`)).onChainId;
    expect(k.disputes.released).toContain(onChainId);
    const d = ok(await call(api.url, "GET", `/resolver/disputes/${s.id}`));
    expect(d).toMatchObject({ state: "Pending", resolver: null });
    expectError(await finalize(s.id), 409, "DEADLINE_NOT_REACHED");
    await chain.timeTravel(27 * DAY + 1); // 30 days after raising: the dispute timeout
    const f = ok(await finalize(s.id));
    expect(f.dispute).toMatchObject({ state: "Finalized", outcome: "Split", splitPercentage: 50, byDefault: true });
    await expectBalances(s, expectedPayout({ outcome: "Split", split: 50, decided: false, initiatorIsPoster: true }, s.pool), { poster: reserve(REWARD) }, null);
  });
});

describe("reads", () => {
  it("filters by state, outcome and the signed-in user's role; by mission and user; stats", async () => {
    expectError(await call(api.url, "GET", "/resolver/disputes?role=poster"), 401, "UNAUTHORIZED");
    expectError(await call(api.url, "GET", "/resolver/disputes?state=Open"), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "GET", "/resolver/disputes/not-a-uuid"), 400, "VALIDATION_ERROR");
    expectError(await call(api.url, "GET", "/resolver/disputes/00000000-0000-8000-8000-000000000000"), 404, "DISPUTE_NOT_FOUND");
    const mine = (ok(await call(api.url, "GET", "/resolver/disputes?role=initiator&outcome=Split", { token: tok(performer) })).disputes as any[])
      .filter((d) => Date.parse(d.createdAt) / 1000 >= settledBefore);
    expect(mine.length).toBeGreaterThan(0);
    for (const d of mine) {
      expect(d.initiator.evmAddress).toBe(performer.address.toLowerCase());
      expect(d.outcome).toBe("Split");
      expect(d.mission).toEqual({ title: "Fix a bike", category: "repair", rewardAmount: REWARD.toString() });
      expect(typeof d.ddrAmount).toBe("number");
    }
    expect(ok(await call(api.url, "GET", "/resolver/disputes?role=poster", { token: tok(other) })).disputes.every((d: any) => d.poster.evmAddress === other.address.toLowerCase())).toBe(true);
    const asResolver = ok(await call(api.url, "GET", "/resolver/disputes?role=resolver&state=Finalized", { token: tok(resolver) })).disputes;
    expect(asResolver.length).toBeGreaterThanOrEqual(5);
    const byUser = ok(await call(api.url, "GET", `/resolver/disputes/user/${performer.address.toLowerCase()}?role=performer`)).disputes;
    expect(byUser.length).toBeGreaterThanOrEqual(6);
    const byMission = ok(await call(api.url, "GET", `/resolver/disputes/mission/${byUser[0].missionId}`)).disputes;
    expect(byMission.map((d: any) => d.id)).toEqual([byUser[0].id]);

    // This file: poster in 6 disputes (initiator of 3); wins 1 (PosterWins), losses 2 (PerformerWins twice), splits 2.
    const after = await stats(poster.address);
    const delta = Object.fromEntries(Object.keys(after).filter((k) => k !== "winRate").map((k) => [k, after[k] - statsBefore[k]]));
    expect(delta).toEqual({ totalAsPoster: 6, totalAsPerformer: 0, totalAsResolver: 0, totalAsInitiator: 3, wins: 1, losses: 2, splits: 2 });
    const decided = after.wins + after.losses + after.splits;
    expect(after.winRate).toBe(Math.round((after.wins * 10000) / decided) / 100);
    const rs = await stats(resolver.address);
    expect(rs.totalAsResolver).toBeGreaterThanOrEqual(5);
    expectError(await call(api.url, "GET", "/resolver/stats/00000000-0000-4000-8000-000000000000"), 404, "NOT_FOUND");
  });

  it("every dispute endpoint is in /openapi.json", async () => {
    const doc = ok(await call(api.url, "GET", "/openapi.json"));
    for (const p of ["/resolver/disputes", "/resolver/disputes/{id}", "/resolver/disputes/mission/{missionId}", "/resolver/disputes/user/{userId}",
      "/resolver/disputes/{id}/evidence", "/resolver/queue", "/resolver/queue/resolver/{resolverId}", "/resolver/stats/{userId}",
      "/resolver/disputes/{id}/take", "/resolver/disputes/{id}/resolve", "/resolver/disputes/{id}/appeal", "/resolver/disputes/{id}/appeal/decide",
      "/resolver/disputes/{id}/finalize", "/resolver/disputes/{id}/release"]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(doc.paths["/resolver/disputes/{id}/evidence"].post.requestBody.content["multipart/form-data"]).toBeDefined();
  });
});
