// The pieces of `npm run rehearse` (script/rehearse.ts), shared with its short e2e version
// (test/e2e/rehearse.test.ts): an anvil standing in for Base Sepolia (its chain id, 2-second blocks,
// the canonical EAS/SchemaRegistry and a 6-decimal permit token at the real addresses), a deploy by a
// newly generated key, the stack through the real supervisor, and a user flow over REST with wallets
// that never hold ETH.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, http, toHex, type Address, type Hex, type LocalAccount, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { testStablecoinAbi } from "../../abis/index.ts";
import { knownChain, type KnownChain } from "../../indexer/lib/known-chains.ts";
import { anvilAddress } from "./accounts.ts";
import { startAnvil, type AnvilHandle } from "./anvil.ts";
import { placeCanonicalContracts } from "./canonical.ts";
import { deploy, type Deployment } from "./deploy.ts";
import { freePort, waitFor } from "./ports.ts";
import { spawnManaged, type ManagedProcess } from "./process.ts";
import { repoRoot } from "./paths.ts";

export const STAND_IN: KnownChain = knownChain(84532)!;

/** An anvil-only JSON-RPC call (viem's typed `request` knows only the standard methods). */
export const anvilRpc = (client: PublicClient, method: string, params: unknown[] = []): Promise<unknown> =>
  (client.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });

/** Prints `[  12.3s] PASS what (1.2s)`; a failure prints FAIL and rethrows. */
export function stepper(log: (line: string) => void = console.log) {
  const t0 = Date.now();
  const at = () => `[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s]`;
  return {
    async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
      const t = Date.now();
      try {
        const v = await fn();
        log(`${at()} PASS ${what} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
        return v;
      } catch (err) {
        log(`${at()} FAIL ${what}: ${err instanceof Error ? err.message : String(err)}`);
        throw err;
      }
    },
    skip(what: string, why: string) {
      log(`${at()} SKIPPED ${what}: ${why}`);
    },
  };
}

export interface StandIn {
  anvil: AnvilHandle;
  client: PublicClient;
  deployer: LocalAccount;
  deployerKey: Hex;
  relayerKeys: Hex[];
  deployment: Deployment;
  deploymentFile: string;
  dir: string;
  /** The block before anything of ours: the default-key check starts here. */
  firstBlock: bigint;
  stop(): Promise<void>;
}

/** Steps 1-3: the stand-in chain with its canonical contracts, and a deploy by fresh keys. */
export async function standInChain(o: { blockTime?: number; fastDeploy?: boolean; log?: (line: string) => void } = {}): Promise<StandIn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rehearse-"));
  // The embedded PostgreSQL (DATA_DIR/pg) runs as the `postgres` user when we are root: it must reach
  // inside (mkdtemp makes the directory 0700; initdb then fails with "Permission denied").
  fs.chmodSync(dir, 0o755);
  const blockTime = o.blockTime ?? 2;
  // fastDeploy (the e2e's short version): automine through the set-up and the deploy, then the
  // testnet's rhythm for everything the stack does.
  const anvil = await startAnvil({ chainId: STAND_IN.chainId, blockTime: o.fastDeploy ? undefined : blockTime, log: o.log });
  try {
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) }) as PublicClient;
    const deployerKey = generatePrivateKey();
    const deployer = privateKeyToAccount(deployerKey);
    // A two-key pool: key 0 is the primary (the deployment's relayer, holding the roles), both hold
    // RELAYER_ROLE on the executor and forward users' calls.
    const relayerKeys = [generatePrivateKey(), generatePrivateKey()];
    const pool = relayerKeys.map((k) => privateKeyToAccount(k));
    const relayer = pool[0]!;
    const firstBlock = await client.getBlockNumber();
    for (const a of [deployer.address, ...pool.map((p) => p.address)]) {
      await anvilRpc(client, "anvil_setBalance", [a, toHex(10n ** 20n)]);
    }
    await placeCanonicalContracts(anvil.rpcUrl, STAND_IN, { tokenAdmin: deployer.address });
    const deploymentFile = path.join(dir, `${STAND_IN.chainId}.json`);
    const deployment = await deploy({
      rpcUrl: anvil.rpcUrl,
      deploymentFile,
      env: { DEPLOYER_PRIVATE_KEY: deployerKey, RELAYER_ADDRESS: relayer.address, RELAYER_ADDRESSES: pool.map((p) => p.address).join(",") },
      log: o.log,
    });
    if (o.fastDeploy) {
      await anvilRpc(client, "evm_setAutomine", [false]);
      await anvilRpc(client, "evm_setIntervalMining", [blockTime]);
    }
    return {
      anvil, client, deployer, deployerKey, relayerKeys, deployment, deploymentFile, dir, firstBlock,
      async stop() {
        await anvil.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}

/**
 * Throws if any transaction since `from` was sent by one of anvil's well-known accounts (0-19 of the
 * public mnemonic): on a testnet those keys are everybody's.
 */
export async function assertNoDefaultKeys(client: PublicClient, from: bigint): Promise<number> {
  const defaults = new Set(Array.from({ length: 20 }, (_, i) => anvilAddress(i).toLowerCase()));
  const head = await client.getBlockNumber();
  let txs = 0;
  for (let n = from; n <= head; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      txs++;
      if (defaults.has(tx.from.toLowerCase())) throw new Error(`block ${n}: tx ${tx.hash} from anvil's default account ${tx.from}`);
    }
  }
  return txs;
}

/** The one place the relayer's keys are passed on: RELAYER_PRIVATE_KEYS (the key pool, primary first). */
export const relayerKeyEnv = (keys: Hex[]): Record<string, string> => ({
  RELAYER_PRIVATE_KEYS: keys.join(","),
});

export interface Stack {
  apiUrl: string;
  supervisor: ManagedProcess;
  stop(): Promise<void>;
}

/** Step 4: indexer and API through the real supervisor (`npm start`) against the stand-in chain. */
export async function startStack(chain: StandIn, o: { databaseUrl?: string; jwtSecret: string; log?: (line: string) => void }): Promise<Stack> {
  const [port, indexerPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RPC_URL: chain.anvil.rpcUrl,
    RPC_WS_URL: chain.anvil.wsUrl,
    DEPLOYMENT_FILE: chain.deploymentFile,
    DATA_DIR: path.join(chain.dir, "data"),
    PORT: String(port),
    INDEXER_PORT: String(indexerPort),
    JWT_SECRET: o.jwtSecret,
    ...relayerKeyEnv(chain.relayerKeys),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  };
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  else delete env.DATABASE_URL;
  const supervisor = spawnManaged("supervisor", process.execPath, ["--import", "tsx", path.join(repoRoot, "script/start.ts")], {
    cwd: repoRoot, env, onLine: o.log,
  });
  const apiUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor("the API behind the supervisor", async () => (await fetch(`${apiUrl}/config`)).status === 200, {
      timeoutMs: 240_000,
      abort: supervisor.crashed,
    });
  } catch (err) {
    await supervisor.stop("SIGINT").catch(() => {});
    throw err;
  }
  return { apiUrl, supervisor, stop: () => supervisor.stop("SIGINT") };
}

/** A REST client that throws with the route, status and error envelope on anything but 2xx. */
export function rest(base: string) {
  return async function call<T = any>(method: string, route: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(`${base}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${route} -> ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

export interface User {
  account: LocalAccount;
  token: string;
}

/** A brand-new wallet signed in with SIWE and set up gaslessly (operator approval + permit). */
export async function newUser(call: ReturnType<typeof rest>): Promise<User> {
  const account = privateKeyToAccount(generatePrivateKey());
  const { message } = await call("POST", "/auth/message", { address: account.address });
  const signature = await account.signMessage({ message });
  const { token } = await call("POST", "/auth/verify", { address: account.address, signature });
  const { steps } = await call("GET", "/wallet/setup", undefined, token);
  const signatures = [];
  for (const s of steps.filter((x: { done: boolean }) => !x.done)) {
    signatures.push({ id: s.id, message: s.typedData.message, signature: await account.signTypedData(s.typedData) });
  }
  if (signatures.length) await call("POST", "/wallet/setup", { signatures }, token);
  return { account, token };
}

/** Test USDC for a user, minted by the stand-in token's admin (the deployer): no faucet off 31337. */
export async function fund(chain: StandIn, to: Address, amount: bigint): Promise<void> {
  const wallet = createWalletClient({ account: chain.deployer, transport: http(chain.anvil.rpcUrl) });
  const hash = await wallet.writeContract({ chain: null, address: STAND_IN.usdc, abi: testStablecoinAbi, functionName: "mint", args: [to, amount] });
  const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200, timeout: 60_000 });
  if (receipt.status !== "success") throw new Error("mint reverted");
}

/** Step 5's core: post, accept, submit, approve, all over REST by gasless wallets. Returns the mission id. */
export async function missionFlow(call: ReturnType<typeof rest>, poster: User, performer: User): Promise<string> {
  const created = await call(
    "POST",
    "/missions",
    {
      title: "Rehearsal delivery",
      description: "Carry a parcel from the bakery to the library desk.",
      rewardAmount: "2.500000",
      category: "delivery",
      expiresIn: 24 * 3600,
      location: { latitude: 52.52, longitude: 13.405, radius: 150 },
    },
    poster.token,
  );
  const id = created.data.id as string;
  await call("POST", `/missions/${id}/accept`, undefined, performer.token);
  await call("POST", `/missions/${id}/submit`, { proofType: "url", proofData: "https://example.org/proof.jpg", notes: "Left at the desk" }, performer.token);
  // No rating with the approval: step 5f rates through POST /ratings/mission/{id}.
  await call("POST", `/missions/${id}/approve`, undefined, poster.token);
  const got = await call("GET", `/missions/${id}`);
  const state = String(got.data?.status ?? got.data?.state ?? got.status ?? got.state ?? "");
  if (!/completed/i.test(state)) throw new Error(`mission ${id} is ${state || JSON.stringify(got).slice(0, 200)}, not Completed`);
  return id;
}

/**
 * Step 5's stuck transaction, written against the relayer's replacement interface: the base fee is
 * held far above what the relayer offered for several blocks while a write is in flight; the hash the
 * API answers must be the transaction that was mined (a replacement's, when the relayer replaced it).
 */
export async function stuckTxReplaced(chain: StandIn, call: ReturnType<typeof rest>, poster: User, o: { spikeGwei?: number; blocks?: number } = {}): Promise<Hex> {
  // 50 gwei: a real spike (Base Sepolia runs well under 1 gwei), below the default cap of 200 gwei so the
  // replacement has room.
  const spike = BigInt(o.spikeGwei ?? 50) * 10n ** 9n;
  const rpc = (method: string, params: unknown[]) => anvilRpc(chain.client, method, params);
  const answer = call("POST", "/missions", {
    title: "Rehearsal: posted during a fee spike", description: "The relayer must replace its stuck transaction.",
    rewardAmount: "1.000000", category: "delivery", expiresIn: 24 * 3600, location: { latitude: 52.5, longitude: 13.4, radius: 150 },
  }, poster.token).then((v) => ({ v, err: null as unknown }), (err: unknown) => ({ v: null, err }));
  // Hold the spike: each block's base fee is set just before it is mined.
  const start = await chain.client.getBlockNumber();
  for (let n = start; n < start + BigInt(o.blocks ?? 6); ) {
    await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(spike)]);
    await waitFor("the next block", async () => (await chain.client.getBlockNumber()) > n, { timeoutMs: 30_000 });
    n = await chain.client.getBlockNumber();
  }
  const res = await answer;
  if (res.err) throw res.err;
  const hash = res.v.data.transactionHash as Hex;
  const receipt = await chain.client.getTransactionReceipt({ hash }).catch(() => null);
  if (!receipt) throw new Error(`the API answered ${hash}, which is not mined`);
  if (receipt.status !== "success") throw new Error(`the API answered ${hash}, which reverted`);
  return hash;
}
