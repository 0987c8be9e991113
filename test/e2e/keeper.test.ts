// The deadline keeper on a live stack (anvil + Postgres + an indexer + two API copies sharing them):
// each mission deadline after anvil's clock is moved past it, a user who acts first is skipped, two
// copies send one transaction per deadline; approve with a rating; stale rating claims swept once.
// Keeper passes are driven with deps.keeper.tick() (the e2e helper turns the background timer off).
import { operatorOf } from "../../domain/index.ts";
import { type Abi, type Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { missionEscrowAbi, operatorRegistryAbi, testStablecoinAbi } from "../../abis/index.ts";
import type { KeeperPass } from "../../api/services/keeper/deadline-keeper.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";

let a: TestApi;
let b: TestApi;
let chain: ReturnType<typeof chainEnv>;
let startedAt: Date;
const tokens = new Map<string, string>();
const tok = (u: { address: Address }) => tokens.get(u.address)!;
const ok = (res: { status: number; body: any }, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freshSignedIn(): Promise<PrivateKeyAccount> {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  tokens.set(u.address, await signIn(a.url, u));
  return u;
}
const balance = (who: Address) =>
  chain.client.readContract({ address: chain.c.Stablecoin.address, abi: testStablecoinAbi, functionName: "balanceOf", args: [who] });

async function createMission(poster: PrivateKeyAccount, expiresIn: number, reward = "7.5") {
  const c = ok(await call(a.url, "POST", "/missions", {
    token: tok(poster),
    body: { title: "Water the plants", description: "Twice", rewardAmount: reward, category: "home", expiresIn },
  }), 201);
  return { id: c.data.id as string, onChainId: c.data.onChainId as string };
}
const accept = async (id: string, performer: PrivateKeyAccount) => ok(await call(a.url, "POST", `/missions/${id}/accept`, { token: tok(performer) }));
const submit = async (id: string, performer: PrivateKeyAccount) =>
  ok(await call(a.url, "POST", `/missions/${id}/submit`, { token: tok(performer), body: { proofType: "text", proofData: "done" } }));
const getMission = async (id: string) => ok(await call(a.url, "GET", `/missions/${id}`)).data;

/** Passes until `done` holds (other files' missions may be due too, in batches), all passes returned. */
async function passesUntil(done: (all: KeeperPass[]) => boolean, copies: TestApi[] = [a]): Promise<KeeperPass[]> {
  const all: KeeperPass[] = [];
  for (let i = 0; i < 40 && !done(all); i++) all.push(...(await Promise.all(copies.map((c) => c.server.deps.keeper.tick()))));
  expect(done(all), "keeper passes did not reach the expected outcome").toBe(true);
  return all;
}
const expired = (all: KeeperPass[]) => all.flatMap((p) => p.missions.expired);
const released = (all: KeeperPass[]) => all.flatMap((p) => p.missions.released);

async function notificationsOf(who: PrivateKeyAccount, type: string, missionId: string, waitMs = 10_000) {
  const until = Date.now() + waitMs;
  for (;;) {
    const r = ok(await call(a.url, "GET", `/notifications?type=${type}`, { token: tok(who) }));
    const mine = r.notifications.filter((n: any) => n.data?.missionId === missionId);
    if (mine.length || Date.now() > until) return mine;
    await sleep(200);
  }
}

/** The relayer's transactions of `fn` since the file started: all recorded, and those that reverted. */
async function outboxSince(fn: string) {
  const { rows } = await a.server.deps.database.pool.query<{ total: number; reverted: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'reverted')::int AS reverted
       FROM api.relayer_outbox WHERE fn = $1 AND created_at >= $2`,
    [fn, startedAt],
  );
  return rows[0]!;
}
const expiredEvents = async (onChainId: string) =>
  (await chain.client.getContractEvents({
    address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, eventName: "MissionExpired", args: { missionId: BigInt(onChainId) }, fromBlock: 0n,
  })).length;

beforeAll(async () => {
  chain = chainEnv();
  startedAt = new Date();
  a = await startTestApi({ REACTORS_POLL_MS: "50" }, { indexer: "shared" });
  b = await startTestApi({ CHAIN_SCHEMA: a.server.env.CHAIN_SCHEMA, INDEXER_URL: a.follows!.url, REACTORS_ENABLED: "false" });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe("mission deadlines", () => {
  it("Open past expiresAt: Expired, the reward back to the poster, a notification and a websocket update", async () => {
    const poster = await freshSignedIn();
    const m = await createMission(poster, 120);
    const before = await balance(poster.address);
    const first = await a.server.deps.keeper.tick();
    expect(first.leader).toBe(true);
    expect(first.missions.expired).not.toContain(m.onChainId);

    const ws = new WebSocket(`${a.url.replace("http", "ws")}/ws?token=${tok(poster)}`);
    const frames: any[] = [];
    ws.on("message", (raw) => frames.push(JSON.parse(raw.toString())));
    await new Promise((r) => ws.once("open", r));

    await chain.timeTravel(121);
    await passesUntil((all) => expired(all).includes(m.onChainId));
    const view = await getMission(m.id);
    expect(view).toMatchObject({ state: "Expired", refundAmount: "7.500000" });
    expect((await balance(poster.address)) - before).toBe(usdc(7.5));
    const [n] = await notificationsOf(poster, "MISSION_EXPIRED", m.id);
    expect(n).toMatchObject({ type: "MISSION_EXPIRED", data: { missionId: m.id, refundAmount: "7500000" } });
    for (let i = 0; i < 50 && !frames.some((f) => f.event === "mission:updated"); i++) await sleep(100);
    ws.close();
    expect(frames.find((f) => f.event === "mission:updated")?.data).toMatchObject({ missionId: m.id, state: "Expired" });
    expect(await expiredEvents(m.onChainId)).toBe(1);
  });

  it("Accepted without proof past expiresAt: the poster's reclaim (Expired, full refund); the performer is told", async () => {
    const [poster, performer] = [await freshSignedIn(), await freshSignedIn()];
    const m = await createMission(poster, 300, "11");
    await accept(m.id, performer);
    const before = await balance(poster.address);
    await chain.timeTravel(301);
    await passesUntil((all) => expired(all).includes(m.onChainId));
    expect(await getMission(m.id)).toMatchObject({ state: "Expired", refundAmount: "11.000000" });
    expect((await balance(poster.address)) - before).toBe(usdc(11));
    expect((await notificationsOf(performer, "MISSION_EXPIRED", m.id)).length).toBe(1);
  });

  it("Submitted past the review window: released to the performer (Completed by claim)", async () => {
    const [poster, performer] = [await freshSignedIn(), await freshSignedIn()];
    const m = await createMission(poster, 3600, "20");
    await accept(m.id, performer);
    await submit(m.id, performer);
    const review = await chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "windowOf", args: [0] });
    const early = await a.server.deps.keeper.tick();
    expect(early.missions.released).not.toContain(m.onChainId);
    const before = await balance(performer.address);
    await chain.timeTravel(review + 1n);
    await passesUntil((all) => released(all).includes(m.onChainId));
    const view = await getMission(m.id);
    expect(view.state).toBe("Completed");
    expect(view.completedAt).not.toBeNull();
    const { rows } = await a.server.deps.database.pool.query(
      `SELECT performer_amount::text, by_claim FROM "${a.server.env.CHAIN_SCHEMA}".settlements WHERE mission_id = $1`, [m.id]);
    expect(rows[0]).toMatchObject({ by_claim: true });
    expect((await balance(performer.address)) - before).toBe(BigInt(rows[0].performer_amount));
    expect(BigInt(rows[0].performer_amount)).toBeGreaterThan(0n);
    expect((await notificationsOf(performer, "MISSION_COMPLETED", m.id)).length).toBe(1);
  });

  it("a user who acts first is skipped: no keeper transaction for that mission", async () => {
    const poster = await freshSignedIn();
    const viaApi = await createMission(poster, 120);
    const onChain = await createMission(poster, 120);
    await chain.timeTravel(121);
    // The poster cancels one over the API; anyone expires the other straight on the chain, and the
    // keeper's pass follows at once (its index may not show it yet: the on-chain re-read decides).
    ok(await call(a.url, "POST", `/missions/${viaApi.id}/cancel`, { token: tok(poster) }));
    const outboxBefore = await outboxSince("expireMission");
    await chain.escrow(chain.faucet, "expireMission", [BigInt(onChain.onChainId)]);
    const all: KeeperPass[] = [];
    for (let i = 0; i < 40; i++) {
      const p = await a.server.deps.keeper.tick();
      all.push(p);
      if (!p.missions.expired.length && !p.missions.released.length) break;
    }
    expect(expired(all)).not.toContain(viaApi.onChainId);
    expect(expired(all)).not.toContain(onChain.onChainId);
    expect(await expiredEvents(onChain.onChainId)).toBe(1);
    expect((await getMission(viaApi.id)).state).toBe("Cancelled");
    // Every keeper transaction is one the passes reported; none reverted.
    const after = await outboxSince("expireMission");
    expect(after.total - outboxBefore.total).toBe(expired(all).length);
    expect(after.reverted).toBe(0);
  });

  it("two API copies: one transaction per deadline", async () => {
    const poster = await freshSignedIn();
    const ms = [await createMission(poster, 120), await createMission(poster, 120), await createMission(poster, 120)];
    await chain.timeTravel(121);
    const before = await outboxSince("expireMission");
    const all = await passesUntil((p) => ms.every((m) => expired(p).includes(m.onChainId)), [a, b]);
    for (const m of ms) {
      expect(expired(all).filter((x) => x === m.onChainId)).toHaveLength(1);
      expect(await expiredEvents(m.onChainId)).toBe(1);
    }
    const after = await outboxSince("expireMission");
    expect(after.total - before.total).toBe(expired(all).length);
    expect(after.reverted).toBe(0);
  });
});

describe("approve with a rating", () => {
  /** A Submitted mission between two fresh accounts. */
  async function submitted(reward = "30") {
    const [poster, performer] = [await freshSignedIn(), await freshSignedIn()];
    const m = await createMission(poster, 3600, reward);
    await accept(m.id, performer);
    await submit(m.id, performer);
    return { ...m, poster, performer };
  }
  const approve = (m: { id: string; poster: PrivateKeyAccount }, body: unknown) =>
    call(a.url, "POST", `/missions/${m.id}/approve`, { token: tok(m.poster), body });
  const rate = (m: { id: string }, who: PrivateKeyAccount, body: unknown) =>
    call(a.url, "POST", `/ratings/mission/${m.id}`, { token: tok(who), body });
  const profileOf = async (who: PrivateKeyAccount) => ({
    user: ok(await call(a.url, "GET", `/users/${who.address}`)),
    ratings: ok(await call(a.url, "GET", `/ratings/user/${who.address}/stats`)),
    xp: ok(await call(a.url, "GET", `/xp/${who.address}`)).totalXP,
  });

  let rated: Awaited<ReturnType<typeof submitted>>;
  let unrated: Awaited<ReturnType<typeof submitted>>;
  let posterRating: any;

  it("records the poster's rating of the performer as POST /ratings/mission/:id does; a later rating by the poster is 409", async () => {
    rated = await submitted();
    expect((await approve(rated, { rating: 5, feedback: "f".repeat(1001) })).status).toBe(400); // refused before settling
    expect((await getMission(rated.id)).state).toBe("Submitted");
    const res = ok(await approve(rated, { rating: 5, feedback: "Spotless" }));
    expect(res.data.settlement.performerAmount).toMatch(/^\d+\.\d{6}$/);
    expect(res.data.rating).toMatchObject({ missionId: rated.id, score: 5, comment: "Spotless", isOnChain: true });
    expect(res.data.rating.easUid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.data.ratingError).toBeUndefined();
    const again = await rate(rated, rated.poster, { score: 1, comment: "changed my mind" });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.error.code).toBe("ALREADY_RATED");
    const list = ok(await call(a.url, "GET", `/ratings/mission/${rated.id}`));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ easUid: res.data.rating.easUid, score: 5, rater: { evmAddress: rated.poster.address.toLowerCase() } });
    const v = ok(await call(a.url, "GET", `/ratings/${res.data.rating.id}/verify`));
    expect(v).toMatchObject({ isOnChain: true, verified: true });
  });

  it("an approve without a rating records none; the same rating afterwards gives the performer the same reputation and XP", async () => {
    unrated = await submitted();
    const res = ok(await approve(unrated, {}));
    expect(res.data.rating).toBeUndefined();
    expect(ok(await call(a.url, "GET", `/ratings/mission/${unrated.id}`))).toEqual([]);
    expect((await profileOf(unrated.performer)).ratings.totalRatings).toBe(0);
    posterRating = ok(await rate(unrated, unrated.poster, { score: 5, comment: "Spotless" }), 201);
    const [viaApprove, viaRatings] = [await profileOf(rated.performer), await profileOf(unrated.performer)];
    expect(viaApprove.ratings).toMatchObject({ averageScore: 5, totalRatings: 1, asPerformer: { average: 5, count: 1 } });
    expect(viaApprove.user.reputation).toBe(5);
    expect(viaApprove.user.reputation).toBe(viaRatings.user.reputation);
    expect(viaApprove.xp).toBe(viaRatings.xp);
  });

  it("sweeper: a crashed claim whose attestation is on-chain is finished, one never attested is released; once across copies", async () => {
    const pool = a.server.deps.database.pool;
    // The claim of posterRating as a crash would have left it: pending, attestation not recorded.
    const { rows: [orig] } = await pool.query(`SELECT * FROM api.ratings WHERE id = $1`, [posterRating.id]);
    await pool.query(
      `UPDATE api.ratings SET status = 'pending', eas_uid = NULL, tx_hash = NULL, signature = NULL, created_at = now() - interval '1 hour' WHERE id = $1`,
      [posterRating.id],
    );
    // The performer's claim that died before its attestation was sent; and one too young to touch.
    const claim = (who: PrivateKeyAccount, ratee: PrivateKeyAccount, m: { id: string; onChainId: string }, age: string) =>
      pool.query<{ id: string }>(
        `INSERT INTO api.ratings (mission_id, mission_on_chain_id, rater, ratee, score, comment, comment_hash, created_at)
         VALUES ($1, $2, $3, $4, 3, 'lost', 'keccak256:00', now() - $5::interval) RETURNING id`,
        [m.id, m.onChainId, who.address.toLowerCase(), ratee.address.toLowerCase(), age],
      ).then((r) => r.rows[0]!.id);
    const lost = await claim(unrated.performer, unrated.poster, unrated, "1 hour");
    const young = await claim(rated.performer, rated.poster, rated, "0 seconds");
    const blocked = await rate(unrated, unrated.performer, { score: 4, comment: "Clear brief" });
    expect(blocked.body.error?.code, JSON.stringify(blocked.body)).toBe("ALREADY_RATED");

    const all = await passesUntil(
      (p) => p.some((x) => x.ratings.finished.includes(posterRating.id)) && p.some((x) => x.ratings.released.includes(lost)),
      [a, b],
    );
    const finished = all.flatMap((p) => p.ratings.finished), releasedClaims = all.flatMap((p) => p.ratings.released);
    expect(finished.filter((id) => id === posterRating.id)).toHaveLength(1);
    expect(releasedClaims.filter((id) => id === lost)).toHaveLength(1);
    expect([...finished, ...releasedClaims]).not.toContain(young);
    const { rows: [back] } = await pool.query(`SELECT * FROM api.ratings WHERE id = $1`, [posterRating.id]);
    expect(back).toMatchObject({ status: "onchain", eas_uid: orig.eas_uid, tx_hash: orig.tx_hash, signature: orig.signature });
    expect((await pool.query(`SELECT 1 FROM api.ratings WHERE id = $1`, [lost])).rowCount).toBe(0);
    expect((await pool.query(`SELECT status FROM api.ratings WHERE id = $1`, [young])).rows[0]?.status).toBe("pending");
    // Released: the performer may rate now.
    ok(await rate(unrated, unrated.performer, { score: 4, comment: "Clear brief" }), 201);
    await pool.query(`DELETE FROM api.ratings WHERE id = $1`, [young]);
  });
});
