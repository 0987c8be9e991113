// Referrals through the public interface: recorded once on ReputationRegistry (not twice, not oneself,
// not someone who never used the service), and the referrer's 20 XP paid exactly once when the
// referee first completes a mission, as performer or as poster, including across an indexer restart.
// The file's own indexer, so that it can be stopped and resumed.
import type { Abi, Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reputationRegistryAbi } from "../../abis/index.ts";
import { startIndexer } from "../../script/lib/indexer.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let referrer: PrivateKeyAccount; // refers both
let asPerformer: PrivateKeyAccount; // referee whose first completion is as performer
let asPoster: PrivateKeyAccount; // referee whose first completion is as poster
let other: PrivateKeyAccount; // the other party of their missions
const tokens = new Map<string, string>();
const tok = (a: { address: string }) => tokens.get(a.address)!;
const REWARD = usdc(5);

const refer = (who: PrivateKeyAccount, body: unknown) => call(api.url, "POST", "/users/me/referral", { token: tok(who), body });
const referrerOnChain = (referee: Address) =>
  chain.client.readContract({ address: chain.c.ReputationRegistry.address, abi: reputationRegistryAbi as Abi, functionName: "referrerOf", args: [referee] }) as Promise<Address>;
/** The referrer's `referral` ledger entries, through the public API. */
const referralXp = async () => {
  const res = await call(api.url, "GET", `/xp/${referrer.address}/ledger?limit=500`);
  expect(res.status).toBe(200);
  return (res.body as { source: string; xpDelta: number; reason: string }[]).filter((e) => e.source === "referral");
};
const settle = async () => api.indexer!.waitForBlock(await chain.client.getBlockNumber());
/** Stops the API's indexer, runs `meanwhile` (the chain moves on unindexed), and starts a new one on the same schema. */
async function restartIndexer(meanwhile?: () => Promise<void>) {
  const old = api.indexer!;
  await old.stop();
  chain.setIndexer(undefined);
  await meanwhile?.();
  const env = api.server.env;
  api.indexer = await startIndexer({
    databaseUrl: inject("databaseUrl"), rpcUrl: inject("rpcUrl"), wsUrl: inject("wsUrl"), deploymentFile: inject("deploymentFile"),
    schema: env.CHAIN_SCHEMA.replace(/^chain_api_/, "ponder_api_"), viewsSchema: env.CHAIN_SCHEMA, port: old.port,
  });
  chain.setIndexer(api.indexer);
}

beforeAll(async () => {
  chain = chainEnv();
  api = await startTestApi({}, { indexer: true });
  chain.setIndexer(api.indexer);
  [referrer, asPerformer, asPoster, other] = [await chain.freshUser(), await chain.freshUser(), await chain.freshUser(), await chain.freshUser()];
  for (const u of [referrer, asPerformer, asPoster]) tokens.set(u.address, await signIn(api.url, u));
}, 300_000);
afterAll(async () => {
  await api?.stop();
});

describe("POST /users/me/referral", () => {
  it("refuses oneself, an address that never used the service and a malformed one with 400, recording nothing", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const cases: [unknown, string][] = [
      [{ referrer: asPerformer.address }, "yourself"],
      [{ referrer: asPerformer.address.toLowerCase() }, "yourself"],
      [{ referrer: stranger.address }, "not a user"],
      [{ referrer: "0x1234" }, "address"],
      [{}, ""],
    ];
    for (const [body, reason] of cases) {
      const res = await refer(asPerformer, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details[0].field).toBe("body.referrer");
      expect(res.body.error.details[0].reason).toContain(reason);
    }
    expect(await referrerOnChain(asPerformer.address)).toBe("0x0000000000000000000000000000000000000000");
  });

  it("records the referrer on chain once; a second call is 409 ALREADY_REFERRED (same or another referrer)", async () => {
    const first = await refer(asPerformer, { referrer: referrer.address });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ referee: asPerformer.address.toLowerCase(), referrer: referrer.address.toLowerCase() });
    expect(first.body.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await referrerOnChain(asPerformer.address)).toLowerCase()).toBe(referrer.address.toLowerCase());
    for (const again of [referrer, asPoster]) {
      const res = await refer(asPerformer, { referrer: again.address });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("ALREADY_REFERRED");
    }
    expect((await referrerOnChain(asPerformer.address)).toLowerCase()).toBe(referrer.address.toLowerCase());
    expect((await refer(asPoster, { referrer: referrer.address })).status).toBe(201);
    expect(await referralXp(), "nothing before a completion").toEqual([]);
  });
});

describe("referral XP", () => {
  it("20 XP when the referee first completes a mission as performer, never again", async () => {
    await chain.completeMission(other, asPerformer, REWARD);
    await settle();
    const paid = await referralXp();
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ xpDelta: 20, reason: expect.stringContaining(asPerformer.address.toLowerCase()) });
    await chain.completeMission(other, asPerformer, REWARD);
    await chain.completeMission(asPerformer, other, REWARD); // now as poster too
    await settle();
    expect(await referralXp()).toHaveLength(1);
  });

  it("20 XP when the referee first completes a mission as poster, never again", async () => {
    await chain.completeMission(asPoster, other, REWARD);
    await settle();
    const paid = (await referralXp()).filter((e) => e.reason.includes(asPoster.address.toLowerCase()));
    expect(paid).toHaveLength(1);
    expect(paid[0]!.xpDelta).toBe(20);
    await chain.completeMission(asPoster, other, REWARD);
    await settle();
    expect(await referralXp()).toHaveLength(2);
  });

  it("still exactly once each after the indexer stops, completions happen meanwhile, and it resumes", async () => {
    const before = await referralXp();
    const totalBefore = (await call(api.url, "GET", `/xp/${referrer.address}`)).body.totalXP;
    await restartIndexer(async () => {
      await chain.completeMission(other, asPerformer, REWARD);
      await chain.completeMission(asPoster, other, REWARD);
    });
    await settle();
    await chain.completeMission(other, asPerformer, REWARD);
    await settle();
    expect(await referralXp()).toEqual(before);
    expect((await call(api.url, "GET", `/xp/${referrer.address}`)).body.totalXP).toBe(totalBefore);
    expect(totalBefore).toBe(40);
  }, 300_000);

  it("a referral recorded before a restart, in a block Ponder has finalized, is paid at the referee's first completion after it", async () => {
    // The indexer skips the referral lookup of a completion whose parties never had a referral row
    // (indexer/store/maybe-stored.ts): after a restart it must know the rows an earlier process wrote.
    const referee = await chain.freshUser();
    tokens.set(referee.address, await signIn(api.url, referee));
    expect((await refer(referee, { referrer: referrer.address })).status).toBe(201);
    await chain.client.request({ method: "anvil_mine", params: ["0x80"] } as never); // past 2 × 30 blocks: Ponder finalizes its block
    await settle();
    await restartIndexer();
    await settle();
    await chain.completeMission(referee, other, REWARD);
    await settle();
    const paid = (await referralXp()).filter((e) => e.reason.includes(referee.address.toLowerCase()));
    expect(paid).toHaveLength(1);
    expect(paid[0]!.xpDelta).toBe(20);
  }, 300_000);
});
