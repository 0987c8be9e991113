// Settlement offers over the real stack (anvil + Postgres + the shared indexer + the API): offer and
// accept before a dispute and inside one (with an assigned resolver paid from the resolver pool),
// withdrawal, OFFER_CHANGED, the refusals that leave everything as it was, and a settlement racing an
// approval. Every party's balance is read on chain and checked to the base unit against the rule of
// docs/decisions.md computed here (money-helpers.ts). Fixtures are direct chain calls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disputeUuid } from "../../domain/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, viewsDb } from "./indexer-helpers.ts";
import { dec, expectError, missionXp, moneyEnv, ok, RESOLVER_FEE, reserve, settle, units, type Party } from "./money-helpers.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let env: ReturnType<typeof moneyEnv>;
let db: ReturnType<typeof viewsDb>;
let poster: Party, performer: Party, stranger: Party;
const REWARD = 123_456_789n; // odd, so every rounding shows

const get = (p: Party | null, path: string) => call(api.url, "GET", path, { token: p?.token });
const post = (p: Party, path: string, body?: unknown) => call(api.url, "POST", path, { token: p.token, body });
const offer = (p: Party, id: string, performerAmount: string) => post(p, `/missions/${id}/settlement`, { performerAmount });
const accept = (p: Party, id: string, performerAmount: string) => post(p, `/missions/${id}/settlement/accept`, { performerAmount });
const parties = () => ({ poster: poster.address, performer: performer.address });
const ledger = async (user: string, missionId: string) =>
  db.q<{ source: string; xp_delta: number }>(`SELECT source, xp_delta FROM $v.xp_ledger WHERE "user" = $1 AND mission_id = $2 ORDER BY key`, [user.toLowerCase(), missionId]);
const stats = async (user: string) => (await db.q(`SELECT * FROM $v.user_stats WHERE address = $1`, [user.toLowerCase()]))[0]!;

/** A Submitted mission of `poster`/`performer`, disputed by `initiator`, taken by the resolver when `take`. */
async function disputed(initiator: Party, take: boolean) {
  const m = await env.mission(poster, performer, REWARD);
  const raised = await chain.escrow(initiator, "raiseDispute", [m.onChainId, initiator.address, `0x${"ab".repeat(32)}`]);
  const disputeId = chain.events(raised).find((e) => e.eventName === "DisputeRaised")!.args.disputeId as bigint;
  if (take) await chain.escrow(chain.resolver, "takeDispute", [disputeId, chain.resolver.address]);
  return { ...m, disputeId, disputeUuid: disputeUuid(chain.deployment.chainId, chain.c.MissionEscrow.address, disputeId) };
}

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({}, { indexer: "shared" });
  chain.setIndexer(api.follows);
  db = viewsDb(api.server.env.CHAIN_SCHEMA);
  env = moneyEnv(chain, () => api);
  poster = await env.party();
  performer = await env.party();
  stranger = await env.party(); // one at a time: the faucet account mints for each
});
afterAll(async () => {
  await api?.stop();
  await db?.pool.end();
});

describe("settlement before a dispute", () => {
  it("the performer offers, the poster accepts: paid as the rule says, Completed, XP on what was paid", async () => {
    const m = await env.mission(poster, performer, REWARD);
    const part = 40_000_001n;
    const before = await env.snapshot(parties());
    const o = ok(await offer(performer, m.id, dec(part))).data;
    expect(o.offer).toEqual({ by: "performer", performerAmount: dec(part), posterAmount: dec(REWARD - part), createdAt: expect.any(String) });
    expect(o.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Read your writes: the offer is there for both parties, nobody else may look.
    expect(ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers).toEqual([o.offer]);
    expectError(await get(stranger, `/missions/${m.id}/settlement`), 403, "FORBIDDEN");

    const s = ok(await accept(poster, m.id, dec(part))).data;
    const want = settle(part);
    expect(s).toMatchObject({
      success: true, state: "Completed", performerAmount: dec(part), posterAmount: dec(REWARD - part), disputeId: null,
      settlement: { performerAmount: dec(want.performer), protocolAmount: dec(want.treasury), labsAmount: dec(want.labs), guildAmount: "0.000000", resolverAmount: dec(want.pool) },
    });
    expect(s.mission).toMatchObject({ state: "Completed", releasedAmount: "0.000000", refundedAmount: "0.000000", remainingAmount: "0.000000" });
    await env.expectMoved(before, parties(), {
      poster: REWARD - part, performer: want.performer, protocolFees: want.treasury, labsFees: want.labs,
      escrow: -(REWARD - want.pool - want.treasury - want.labs), pool: want.pool,
    });
    expect(ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers).toEqual([]);
    // XP and totals on what was actually paid, not on the reward.
    expect((await ledger(performer.address, m.id)).find((e) => e.source === "mission_complete")?.xp_delta).toBe(missionXp(part));
    expect(BigInt((await stats(performer.address)).total_earned)).toBe(want.performer);
    expect(BigInt((await stats(poster.address)).total_spent)).toBe(part);
  });

  it("an offer is replaced, withdrawn, and a stale echo is refused with OFFER_CHANGED (nothing sent)", async () => {
    const m = await env.mission(poster, performer, REWARD);
    ok(await offer(poster, m.id, "10"));
    const replaced = ok(await offer(poster, m.id, "20.5")).data.offer;
    const theirs = ok(await offer(performer, m.id, "90")).data.offer;
    expect(ok(await get(performer, `/missions/${m.id}/settlement`)).data.offers).toEqual([replaced, theirs]);
    const before = await env.snapshot(parties());
    const stale = expectError(await accept(performer, m.id, "10"), 409, "OFFER_CHANGED");
    expect(stale.error.details).toEqual([{ field: "body.performerAmount", reason: "the current offer is 20.500000" }]);
    // The poster withdraws; accepting or withdrawing it again finds nothing.
    ok(await call(api.url, "DELETE", `/missions/${m.id}/settlement`, { token: poster.token }));
    expect(ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers).toEqual([theirs]);
    expectError(await call(api.url, "DELETE", `/missions/${m.id}/settlement`, { token: poster.token }), 409, "NO_OFFER");
    expectError(await accept(performer, m.id, "20.5"), 409, "NO_OFFER");
    expectError(await call(api.url, "DELETE", `/missions/${m.id}/settlement`, { token: stranger.token }), 403, "FORBIDDEN");
    await env.expectMoved(before, parties(), {});
    expect(ok(await get(poster, `/missions/${m.id}`)).data).toMatchObject({ state: "Submitted", remainingAmount: dec(REWARD) });
  });

  it("refusals change nothing: 403 for others, 409 in a wrong state, 400 for bad amounts, with details", async () => {
    const m = await env.mission(poster, performer, REWARD);
    const accepted = await env.mission(poster, performer, REWARD, "Accepted");
    ok(await offer(performer, m.id, "5"));
    const before = await env.snapshot(parties());
    const view = ok(await get(poster, `/missions/${m.id}`)).data;
    const offers = ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers;

    expectError(await offer(stranger, m.id, "1"), 403, "FORBIDDEN");
    expectError(await accept(stranger, m.id, "5"), 403, "FORBIDDEN");
    expectError(await post(stranger, `/missions/${m.id}/release`, { amount: "1" }), 403, "FORBIDDEN");
    expectError(await post(performer, `/missions/${m.id}/release`, { amount: "1" }), 403, "NOT_POSTER");
    expectError(await post(poster, `/missions/${m.id}/refund`, { amount: "1" }), 403, "NOT_PERFORMER");
    expectError(await offer(poster, accepted.id, "1"), 409, "INVALID_STATE");
    expectError(await accept(poster, accepted.id, "1"), 409, "INVALID_STATE");
    const tooMuch = expectError(await offer(poster, m.id, dec(REWARD + 1n)), 400, "VALIDATION_ERROR");
    expect(tooMuch.error.details).toEqual([{ field: "body.performerAmount", reason: `must be at most ${dec(REWARD)} (the mission's remaining escrow)` }]);
    for (const bad of ["1.1234567", "-1", "1e3", "abc", ""]) {
      const r = expectError(await offer(poster, m.id, bad), 400, "VALIDATION_ERROR");
      expect(r.error.details[0].field, bad).toBe("body.performerAmount");
    }
    expectError(await post(poster, `/missions/${m.id}/settlement`, {}), 400, "VALIDATION_ERROR");
    expectError(await post(poster, `/missions/${m.id}/release`, { amount: "0" }), 400, "VALIDATION_ERROR");
    expectError(await post(poster, `/missions/${m.id}/release`, { amount: dec(REWARD + 1n) }), 400, "VALIDATION_ERROR");
    expectError(await post(poster, `/missions/00000000-0000-4000-8000-000000000000/settlement`, { performerAmount: "1" }), 404, "MISSION_NOT_FOUND");
    expectError(await call(api.url, "POST", `/missions/${m.id}/settlement`, { body: { performerAmount: "1" } }), 401, "UNAUTHORIZED");

    await env.expectMoved(before, parties(), {});
    expect(ok(await get(poster, `/missions/${m.id}`)).data).toEqual(view);
    expect(ok(await get(poster, `/missions/${m.id}/settlement`)).data.offers).toEqual(offers);
  });

  it("a wallet that has not authorised the service gets SETUP_REQUIRED, nothing sent", async () => {
    const bare = await chain.freshUser();
    const token = await signIn(api.url, bare);
    const m = await chain.createMission(bare, REWARD);
    await chain.acceptAndSubmit(performer, m);
    const id = (await db.q<{ id: string }>(`SELECT id FROM $v.missions WHERE on_chain_id = $1`, [m.onChainId.toString()]))[0]!.id;
    const r = await call(api.url, "POST", `/missions/${id}/settlement`, { token, body: { performerAmount: "1" } });
    expectError(r, 403, "SETUP_REQUIRED");
    expect(ok(await get(performer, `/missions/${id}/settlement`)).data.offers).toEqual([]);
  });

  it("a settlement racing an approval: one wins, the other is refused, nothing is paid twice", async () => {
    const m = await env.mission(poster, performer, REWARD);
    const part = 61_728_394n;
    ok(await offer(performer, m.id, dec(part)));
    const before = await env.snapshot(parties());
    const [approved, settled] = await Promise.all([
      post(poster, `/missions/${m.id}/approve`),
      accept(poster, m.id, dec(part)),
    ]);
    const statuses = [approved.status, settled.status].sort();
    expect(statuses, JSON.stringify([approved.body, settled.body])).toEqual([200, 409]);
    const loser = approved.status === 409 ? approved : settled;
    expect(["INVALID_STATE", "TX_REVERTED"]).toContain(loser.body.error.code);
    if (approved.status === 200) {
      const s = settle(REWARD);
      await env.expectMoved(before, parties(), { poster: 0n, performer: s.performer, protocolFees: s.treasury, labsFees: s.labs, escrow: -s.performer, pool: s.pool });
    } else {
      const s = settle(part);
      await env.expectMoved(before, parties(), {
        poster: REWARD - part, performer: s.performer, protocolFees: s.treasury, labsFees: s.labs,
        escrow: -(REWARD - s.pool - s.treasury - s.labs), pool: s.pool,
      });
    }
    expect(ok(await get(poster, `/missions/${m.id}`)).data.state).toBe("Completed");
  });
});

describe("settlement inside a dispute", () => {
  it("with an assigned resolver: Finalized Split, DDR back, resolver paid from the pool, no dispute XP", async () => {
    const m = await disputed(performer, true);
    const ddr = reserve(REWARD);
    const part = 37_037_037n; // 30.000000297 % of the reward
    const who = { ...parties(), resolver: chain.resolver.address };
    const before = await env.snapshot(who);
    const wonBefore = [(await stats(poster.address)).disputes_won, (await stats(performer.address)).disputes_won];
    ok(await offer(poster, m.id, dec(part)));
    const s = ok(await accept(performer, m.id, dec(part))).data;
    expect(s).toMatchObject({ state: "Completed", disputeId: m.disputeUuid, posterAmount: dec(REWARD - part) });

    const want = settle(part);
    const pay = before.pool! + want.pool < RESOLVER_FEE ? before.pool! + want.pool : RESOLVER_FEE;
    await env.expectMoved(before, who, {
      poster: REWARD - part, performer: want.performer + ddr, protocolFees: want.treasury, labsFees: want.labs, resolver: pay,
      escrow: -(REWARD - part) - want.performer - ddr - pay, pool: want.pool - pay,
    });
    const d = ok(await get(null, `/resolver/disputes/${m.disputeUuid}`));
    expect(d).toMatchObject({
      state: "Finalized", outcome: "Split", splitPercentage: 30, settledByAgreement: true, missionState: "Completed",
      payout: {
        posterAmount: dec(REWARD - part), performerAmount: dec(want.performer + ddr), protocolAmount: dec(want.treasury),
        labsAmount: dec(want.labs), guildAmount: "0.000000", resolverAmount: dec(pay), poolAmount: dec(want.pool),
      },
      resolverPayment: {
        resolver: chain.resolver.address.toLowerCase(), fee: dec(RESOLVER_FEE), amount: dec(pay),
        status: pay === RESOLVER_FEE ? "paid" : "partial",
      },
    });
    expect(units(d.resolverPayment.poolAfter)).toBe(before.pool! + want.pool - pay);
    // An agreement: mission XP on what was paid, no dispute_won / dispute_lost, no win counted.
    expect((await ledger(performer.address, m.id)).map((e) => e.source)).toContain("mission_complete");
    for (const a of [poster.address, performer.address]) {
      expect((await ledger(a, m.id)).filter((e) => e.source.startsWith("dispute_"))).toEqual([]);
    }
    expect([(await stats(poster.address)).disputes_won, (await stats(performer.address)).disputes_won]).toEqual(wonBefore);
    // The indexer's pool follows the chain's.
    const pool = (await db.q(`SELECT balance::text FROM $v.resolver_pool`))[0]!;
    expect(BigInt(pool.balance)).toBe(await env.escrowRead<bigint>("resolverPool"));
  });

  it("a decided dispute can no longer be settled; settling for 0 cancels; an empty pool is reported", async () => {
    // Drain what earlier files left in the pool: a settlement of 0 adds nothing to it and pays the
    // assigned resolver min(fee, pool); the round that finds it empty reports pool_empty.
    // How much is left depends on which files ran before this one on the lane's chain (the lanes'
    // order varies), so the rounds are counted from the pool: each pays one full fee out of it.
    let status = "";
    const rounds = Number((await env.escrowRead<bigint>("resolverPool")) / RESOLVER_FEE) + 2;
    for (let round = 0; round < rounds && status !== "pool_empty"; round++) {
      const poolBefore = await env.escrowRead<bigint>("resolverPool");
      const m = await disputed(poster, true);
      const who = { ...parties(), resolver: chain.resolver.address };
      const before = await env.snapshot(who);
      ok(await offer(performer, m.id, "0"));
      expect(ok(await accept(poster, m.id, "0")).data).toMatchObject({ state: "Cancelled", posterAmount: dec(REWARD) });
      const pay = poolBefore < RESOLVER_FEE ? poolBefore : RESOLVER_FEE;
      await env.expectMoved(before, who, { poster: REWARD + reserve(REWARD), resolver: pay, escrow: -(REWARD + reserve(REWARD) + pay), pool: -pay });
      const d = ok(await get(null, `/resolver/disputes/${m.disputeUuid}`));
      expect(d).toMatchObject({ outcome: "Split", splitPercentage: 0, missionState: "Cancelled", settledByAgreement: true });
      status = d.resolverPayment.status;
      expect(status).toBe(pay === 0n ? "pool_empty" : pay === RESOLVER_FEE ? "paid" : "partial");
      expect(ok(await get(poster, `/missions/${m.id}`)).data).toMatchObject({ state: "Cancelled", remainingAmount: "0.000000" });
    }
    expect(status, `the pool could not be drained in ${rounds} rounds`).toBe("pool_empty");

    // Settling before a resolver was assigned: nobody is due.
    const pending = await disputed(performer, false);
    ok(await offer(performer, pending.id, "1"));
    ok(await accept(poster, pending.id, "1"));
    expect(ok(await get(null, `/resolver/disputes/${pending.disputeUuid}`)).resolverPayment).toMatchObject({ status: "not_due", resolver: null, amount: "0.000000" });

    // Resolved: the court finishes it.
    const decided = await disputed(poster, true);
    await chain.escrow(chain.resolver, "resolveDispute", [decided.disputeId, 1, 0, `0x${"cd".repeat(32)}`]);
    expectError(await offer(performer, decided.id, "1"), 409, "INVALID_STATE");
  });
});
