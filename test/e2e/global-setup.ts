// Starts the chain side of the stack once per lane (lane.ts) for all e2e files: PostgreSQL (embedded
// and throwaway, unless DATABASE_URL is set; one database per lane), a fresh anvil without persisted
// state, the deployment (to a temporary DEPLOYMENT_FILE) and one shared indexer per lane. Tests read
// their lane's with `inject(...)` from lane.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startAnvil } from "../../script/lib/anvil.ts";
import { startIndexer } from "../../script/lib/indexer.ts";
import { deploy } from "../../script/lib/deploy.ts";
import { ensurePostgres, freshDatabase } from "../../script/lib/postgres.ts";
import { createPublicClient, createWalletClient, http, keccak256, toHex, zeroHash, type Abi, type Address, type Hex } from "viem";
import { testStablecoinAbi } from "../../abis/index.ts";
import { anvilAccount, TEST_FAUCET_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";
import type { Lane } from "./lane.ts";
import { laneCount } from "./suites.ts";
import type { Deployment } from "../../script/lib/deploy.ts";

const verbose = !!process.env.E2E_VERBOSE;
const log = (prefix: string) => (line: string) => {
  if (verbose) console.log(`[${prefix}] ${line}`);
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "marketplace-e2e-"));
  const stops: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(err));
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    // One PostgreSQL server; each lane its own database on it (lane 1 the server's own, so a
    // DATABASE_URL you give is used as it was).
    const postgres = await ensurePostgres({ ephemeral: true, log: log("postgres") });
    stops.push(postgres.stop);
    // Forge scripts one at a time: they share the repository's cache and broadcast folders.
    let forge = Promise.resolve();
    const lanes = await Promise.all(
      Array.from({ length: laneCount() }, async (_, i): Promise<Lane> => {
        const databaseUrl = i === 0 ? postgres.url : await freshDatabase(postgres.url, `${new URL(postgres.url).pathname.slice(1)}_lane${i + 1}`);
        const anvil = await startAnvil({ log: log(`anvil ${i + 1}`) });
        stops.push(anvil.stop);
        const deploymentFile = path.join(tmp, `deployment-${i + 1}.json`);
        const deployed = forge.then(() => deploy({ rpcUrl: anvil.rpcUrl, deploymentFile, log: log(`deploy ${i + 1}`) }));
        forge = deployed.then(() => undefined, () => undefined);
        const deployment = await deployed;
        const deployedBlock = Number(await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber());
        await grantTestFaucet(anvil.rpcUrl, deployment);
        // Started while the chain is short, so it is ready in seconds; a file's own indexer instead
        // backfills everything the lane's earlier files wrote.
        const tag = Math.random().toString(36).slice(2, 8); // a reused DATABASE_URL may hold earlier runs' schemas
        const shared = await startIndexer({
          databaseUrl, rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, deploymentFile,
          schema: `ponder_e2e_shared_${tag}`, viewsSchema: `chain_e2e_shared_${tag}`, log: log(`indexer ${i + 1}`),
        });
        stops.push(shared.stop); // stopped before anvil and PostgreSQL (teardown runs in reverse)
        return {
          databaseUrl, rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, deploymentFile, deployment, deployedBlock,
          sharedIndexer: { url: shared.url, viewsSchema: shared.viewsSchema },
        };
      }),
    );
    project.provide("lanes", lanes);
    console.log(`e2e stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s (${lanes.length} lane${lanes.length > 1 ? "s" : ""}: anvil ${lanes.map((l) => l.rpcUrl).join(", ")})`);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}

/**
 * Tests mint test tokens from their own faucet account, never from account 0: account 0 is the API's
 * relayer, and two processes sending from one account race for nonces (a replaced transaction's
 * receipt never comes, and the test hangs).
 */
async function grantTestFaucet(rpcUrl: string, deployment: Deployment) {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const faucet = anvilAccount(TEST_FAUCET_ACCOUNT_INDEX);
  await client.request({ method: "anvil_setBalance", params: [faucet.address, toHex(10n ** 21n)] } as never);
  const admin = createWalletClient({ account: anvilAccount(0), transport: http(rpcUrl) });
  const c = deployment.contracts;
  // Minting test tokens and achievement NFTs, and granting escrow roles: everything tests would
  // otherwise send from account 0 while an API (whose relayer is account 0) runs.
  const grants: [Address, Hex][] = [
    [c.Stablecoin!.address as Address, keccak256(toHex("FAUCET_ROLE"))],
    [c.AchievementNFT!.address as Address, keccak256(toHex("MINTER_ROLE"))],
    [c.MissionEscrow!.address as Address, zeroHash], // DEFAULT_ADMIN_ROLE: grants APPEALS_ROLE in tests
    // Builder scores (test/e2e/levels.ts) from this account, never from account 0, the API's relayer.
    [c.ReputationRegistry!.address as Address, keccak256(toHex("PROVIDER_ROLE"))],
  ];
  for (const [address, role] of grants) {
    const hash = await admin.writeContract({
      chain: null,
      address,
      abi: testStablecoinAbi as Abi, // AccessControl's grantRole: the same ABI entry on every contract
      functionName: "grantRole",
      args: [role, faucet.address],
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`grantRole on ${address} reverted`);
  }
}
