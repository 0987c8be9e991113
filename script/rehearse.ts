// `npm run rehearse`: a testnet deploy rehearsed on this machine (README "Rehearse a testnet deploy").
// An anvil stands in for Base Sepolia (chain id 84532, a block every 2 s, no automine, a fresh
// chain); the canonical EAS and SchemaRegistry and a 6-decimal permit token sit at the real
// addresses; a newly generated key deploys; the real supervisor (`npm start` with RPC_URL) runs the
// indexer and the API with explicit keys; then brand-new wallets go through the gasless set-up and a
// mission's life over REST (post to approval, a dispute to finalisation, a rating read back from the
// canonical EAS). Each step prints PASS/FAIL/SKIPPED with its time; any failure exits 1.
//   --skip-replacement   skip the stuck-transaction step (needs the relayer's replacement; prints SKIPPED)
//   DATABASE_URL         use this PostgreSQL server (a fresh database is made in it); default: embedded
import { randomBytes } from "node:crypto";
import { freshDatabase } from "./lib/postgres.ts";
import {
  assertNoDefaultKeys, fund, missionFlow, newUser, rest, STAND_IN, standInChain, startStack, stepper, stuckTxReplaced, type Stack, type StandIn,
} from "./lib/rehearsal.ts";
import { disputeToFinal, ratingReadBack } from "./lib/rehearsal-steps.ts";

const { step, skip } = stepper();
let chain: StandIn | undefined;
let stack: Stack | undefined;
let code = 0;
try {
  chain = await step("1-3. Base Sepolia stand-in (84532, 2 s blocks), canonical EAS/SchemaRegistry/USDC, deploy by a new key", () =>
    standInChain({ blockTime: 2 }),
  );
  const c = chain;
  const databaseUrl = process.env.DATABASE_URL
    ? await freshDatabase(process.env.DATABASE_URL, `rehearse_${Date.now().toString(36)}`)
    : undefined;
  stack = await step("4. indexer + API through the supervisor (RPC_URL, RELAYER_PRIVATE_KEYS, JWT_SECRET)", () =>
    startStack(c, { databaseUrl, jwtSecret: randomBytes(32).toString("hex") }),
  );
  const apiUrl = stack.apiUrl;
  const call = rest(apiUrl);
  const [poster, performer] = await step("5a. two brand-new wallets: SIWE + gasless set-up", async () => [await newUser(call), await newUser(call)]);
  await step("5b. the poster gets test USDC (the token admin mints; no ETH for users)", () => fund(c, poster.account.address, 100_000_000n));
  const completed = await step("5c. post, accept, submit, approve", () => missionFlow(call, poster, performer));
  await step("5d. users hold no ETH", async () => {
    for (const u of [poster, performer]) {
      const wei = await c.client.getBalance({ address: u.account.address });
      if (wei !== 0n) throw new Error(`${u.account.address} holds ${wei} wei`);
    }
  });
  const d = await step("5e. a dispute to finalisation: raise, evidence, a new resolver takes and splits 70/30, appeal window passed, payout exact", () =>
    disputeToFinal(c, apiUrl, poster, performer),
  );
  console.log(`         finalised by the ${d.finalizedBy}; balance changes (base units): ${Object.entries(d.deltas).map(([k, v]) => `${k} ${v}`).join(", ")}`);
  const r = await step("5f. the poster rates the performer: attestation read back from the canonical EAS, /ratings/:id/verify verified", () =>
    ratingReadBack(c, call, poster, performer, completed),
  );
  console.log(`         attestation ${r.easUid} at ${STAND_IN.eas}`);
  await step("3b. no transaction from anvil's default accounts", async () => {
    const n = await assertNoDefaultKeys(c.client, c.firstBlock);
    if (n === 0) throw new Error("no transactions at all");
  });
  // Passes once the relayer replaces stuck transactions (RELAYER_REPLACE_AFTER_BLOCKS, another branch).
  if (process.argv.includes("--skip-replacement")) skip("5g. stuck transaction replaced after a base-fee spike", "--skip-replacement");
  else await step("5g. stuck transaction replaced after a base-fee spike: the answered hash is the mined one", () => stuckTxReplaced(c, call, poster));
} catch {
  code = 1;
} finally {
  await stack?.stop().catch(() => {});
  await chain?.stop().catch(() => {});
}
process.exit(code);
