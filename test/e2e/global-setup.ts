// Starts the chain side of the stack once for all e2e files: PostgreSQL (embedded and throwaway,
// unless DATABASE_URL is set), a fresh anvil without persisted state, and the deployment (to a
// temporary DEPLOYMENT_FILE), and one shared indexer. Tests read it with vitest's `inject(...)`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startAnvil } from "../../script/lib/anvil.ts";
import { startIndexer } from "../../script/lib/indexer.ts";
import { deploy, type Deployment } from "../../script/lib/deploy.ts";
import { ensurePostgres } from "../../script/lib/postgres.ts";
import { createPublicClient, createWalletClient, http, keccak256, toHex, zeroHash, type Abi, type Address, type Hex } from "viem";
import { testStablecoinAbi } from "../../abis/index.ts";
import { anvilAccount, TEST_FAUCET_ACCOUNT_INDEX } from "../../script/lib/accounts.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    rpcUrl: string;
    wsUrl: string;
    deploymentFile: string;
    deployment: Deployment;
    /** The block right after the deployment: read the set-up there, later files change the chain. */
    deployedBlock: number;
    /** An indexer started with the stack, for files that only read through it (startTestApi's "shared"). */
    sharedIndexer: { url: string; viewsSchema: string };
  }
}

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
    const [postgres, anvil] = await Promise.all([
      ensurePostgres({ ephemeral: true, log: log("postgres") }),
      startAnvil({ log: log("anvil") }),
    ]);
    stops.push(postgres.stop, anvil.stop);
    const deploymentFile = path.join(tmp, "deployment.json");
    const deployment = await deploy({ rpcUrl: anvil.rpcUrl, deploymentFile, log: log("deploy") });

    project.provide("databaseUrl", postgres.url);
    project.provide("rpcUrl", anvil.rpcUrl);
    project.provide("wsUrl", anvil.wsUrl);
    project.provide("deploymentFile", deploymentFile);
    project.provide("deployment", deployment);
    const deployedBlock = await createPublicClient({ transport: http(anvil.rpcUrl) }).getBlockNumber();
    project.provide("deployedBlock", Number(deployedBlock));
    await grantTestFaucet(anvil.rpcUrl, deployment);
    // Started while the chain is short, so it is ready in seconds; a file's own indexer instead
    // backfills everything the earlier files wrote (~60 s late in a full run).
    const tag = Math.random().toString(36).slice(2, 8); // a reused DATABASE_URL may hold earlier runs' schemas
    const shared = await startIndexer({
      databaseUrl: postgres.url, rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, deploymentFile,
      schema: `ponder_e2e_shared_${tag}`, viewsSchema: `chain_e2e_shared_${tag}`, log: log("indexer"),
    });
    stops.push(shared.stop); // stopped first (teardown runs in reverse)
    project.provide("sharedIndexer", { url: shared.url, viewsSchema: shared.viewsSchema });
    console.log(`e2e stack ready in ${((Date.now() - started) / 1000).toFixed(1)} s (anvil ${anvil.rpcUrl})`);
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
