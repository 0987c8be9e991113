// The short testnet rehearsal (the full one is `npm run rehearse`, script/rehearse.ts), with the
// script's own functions: an anvil standing in for Base Sepolia (84532; automined through the deploy
// to save a minute, then 2-second blocks, no automine), canonical EAS/SchemaRegistry/USDC, a deploy
// by a new key, the real supervisor with
// explicit keys, two brand-new wallets through the gasless set-up and a mission from post to
// approval, a second one disputed to finalisation (exact payout), a rating read back from the
// canonical EAS; no transaction from anvil's default keys, no ETH for users.
import { randomBytes } from "node:crypto";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { easAbi } from "../../abis/index.ts";
import { dropDatabase, freshDatabase } from "../../script/lib/postgres.ts";
import {
  anvilRpc, assertNoDefaultKeys, fund, missionFlow, newUser, rest, standInChain, startStack, stepper, STAND_IN, type Stack, type StandIn,
} from "../../script/lib/rehearsal.ts";
import { disputeToFinal, ratingReadBack, RATING_SCHEMA_UID } from "../../script/lib/rehearsal-steps.ts";
import { inject } from "./lane.ts";

const dbName = `rehearse_e2e_${Date.now().toString(36)}`;
let chain: StandIn | undefined;
let stack: Stack | undefined;
const lines: string[] = [];

afterAll(async () => {
  await stack?.stop().catch(() => {});
  await chain?.stop().catch(() => {});
  await dropDatabase(inject("databaseUrl"), dbName).catch(() => {});
  if (process.env.E2E_VERBOSE) console.log(lines.join("\n"));
});

describe("rehearsal (short)", () => {
  it("deploys on a Base Sepolia stand-in with new keys; a gasless mission, a dispute and a rating through the supervisor", async () => {
    const { step } = stepper((l) => lines.push(l));
    chain = await step("stand-in chain + deploy", () => standInChain({ blockTime: 2, fastDeploy: true }));
    const c = chain;
    expect(await c.client.getChainId()).toBe(84532);
    expect(await anvilRpc(c.client, "anvil_getAutomine")).toBe(false);
    expect(c.deployment.contracts.EAS.address.toLowerCase()).toBe(STAND_IN.eas.toLowerCase());
    expect(c.deployment.contracts.Stablecoin.address.toLowerCase()).toBe(STAND_IN.usdc.toLowerCase());
    const databaseUrl = await freshDatabase(inject("databaseUrl"), dbName);
    stack = await step("supervisor", () => startStack(c, { databaseUrl, jwtSecret: randomBytes(32).toString("hex") }));
    const call = rest(stack.apiUrl);
    expect((await call("GET", "/config")).chainId).toBe(84532);
    const poster = await step("poster", () => newUser(call));
    const performer = await step("performer", () => newUser(call));
    await step("fund", () => fund(c, poster.account.address, 100_000_000n));
    const t = Date.now();
    const missionId = await step("mission", () => missionFlow(call, poster, performer));
    lines.push(`mission flow: ${Date.now() - t} ms`);
    const d = await step("dispute", () => disputeToFinal(c, stack!.apiUrl, poster, performer, { reward: 3_000_000n, split: 40 }));
    // 3 USDC, Split 40: the poster's 60 % back (1,800,000); the performer's part 1,200,000 settled as on
    // approval, less protocol 30,000 (of which 6,000 to the resolver pool) and labs 12,000. The resolver is
    // paid from the pool, never from the parties: what the 2.5-USDC mission flow put in (12,500) + 6,000.
    // The treasuries' 24,000 and 12,000 accrue in the escrow (issue 40): their balances do not move.
    expect(d.deltas).toMatchObject({
      poster: 1_800_000n, performer: 1_158_000n, resolver: 18_500n, protocolFeesAccrued: 24_000n, labsFeesAccrued: 12_000n,
    });
    const r = await step("rating", () => ratingReadBack(c, call, poster, performer, missionId));
    const onChain = await c.client.readContract({ address: STAND_IN.eas, abi: easAbi, functionName: "getAttestation", args: [r.easUid] });
    expect(onChain.schema).toBe(RATING_SCHEMA_UID);
    for (const u of [poster, performer]) expect(await c.client.getBalance({ address: u.account.address })).toBe(0n);
    // A two-key pool: both keys sent (the executor's forwards alternate between idle keys).
    expect(c.relayerKeys).toHaveLength(2);
    for (const k of c.relayerKeys) expect(await c.client.getTransactionCount({ address: privateKeyToAccount(k).address })).toBeGreaterThan(0);
    expect(await assertNoDefaultKeys(c.client, c.firstBlock)).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes(" FAIL "))).toEqual([]);
  }, 240_000);
});
