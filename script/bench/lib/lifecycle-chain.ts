// A chain full of mission lifecycles, for benchmark B7 (indexer backfill) and the indexer chaos run.
// anvil + the real deployment + script/bench/LifecycleDriver.sol, which runs many lifecycles
// (create, accept, submit, approve) per transaction through the real escrow: 100k events in a few
// dozen transactions instead of 100k. Posters and performers are anvil accounts 1–8 that approved
// the driver as their operator, so the events carry ordinary user addresses.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  type Abi,
  type Address,
  type Hex,
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  toHex,
} from "viem";
import { foundry } from "viem/chains";
import { anvilAddress } from "../../lib/accounts.ts";
import { type Deployment, deploy } from "../../lib/deploy.ts";
import { foundryBinary } from "../../lib/foundry.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { type ManagedProcess, spawnManaged } from "../../lib/process.ts";

export const POSTERS = [1, 2, 3, 4].map(anvilAddress);
export const PERFORMERS = [5, 6, 7, 8].map(anvilAddress);
/** Sends the driver's transactions: not account 0, which the API's relayer uses (nonces). */
export const LOAD_SENDER = anvilAddress(10);
/** The escrow events the driver emits: what both B7 apps count. */
export const LIFECYCLE_EVENTS = ["MissionCreated", "MissionAccepted", "MissionSubmitted", "MissionCompleted"] as const;

/** Forge dirs: foundry.toml's out/ and cache/ unless BENCH_FORGE_OUT / BENCH_FORGE_CACHE (a helper's own). */
export const forgeDirs = () => ({
  outDir: process.env.BENCH_FORGE_OUT || undefined,
  cachePath: process.env.BENCH_FORGE_CACHE || undefined,
});

const operatorsAbi = parseAbi(["function setOperator(address operator, bool approved)"]);

interface Artifact {
  abi: Abi;
  bytecode: { object: Hex };
}

/** The driver's artifact; compiled (only that file) when the out dir does not have it yet. */
export async function driverArtifact(log: (s: string) => void = () => {}): Promise<Artifact> {
  const { outDir, cachePath } = forgeDirs();
  const file = path.join(repoRoot, outDir ?? "out", "LifecycleDriver.sol", "LifecycleDriver.json");
  if (!fs.existsSync(file)) {
    log(`building script/bench/LifecycleDriver.sol into ${outDir ?? "out"}`);
    const args = ["build", "script/bench/LifecycleDriver.sol"];
    if (outDir) args.push("--out", outDir);
    if (cachePath) args.push("--cache-path", cachePath);
    await new Promise<void>((resolve, reject) =>
      execFile(foundryBinary("forge"), args, { cwd: repoRoot, maxBuffer: 64 << 20 }, (err, out, errOut) =>
        err ? reject(new Error(`forge build of the driver failed:\n${out}\n${errOut}`)) : resolve(),
      ),
    );
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as Artifact;
}

export interface LifecycleChain {
  rpcUrl: string;
  wsUrl: string;
  deploymentFile: string;
  deployment: Deployment;
  anvil: ManagedProcess;
  driver: Address;
  /** Escrow lifecycle events generated so far. */
  events: number;
  missions: number;
  /** Runs `missions` more lifecycles in transactions of `perTx` (every `openEvery`-th stops after accept). */
  generate(missions: number, opts?: { perTx?: number; openEvery?: number; salt?: number }): Promise<{ events: number; blocks: number[] }>;
  mine(blocks: number): Promise<void>;
  head(): Promise<number>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts anvil (block gas limit raised so one transaction can carry hundreds of lifecycles), deploys
 * the marketplace and the driver, and lets accounts 1–8 approve the driver as operator.
 */
export async function startLifecycleChain(opts: { dir: string; log?: (s: string) => void }): Promise<LifecycleChain> {
  const log = opts.log ?? (() => {});
  fs.mkdirSync(opts.dir, { recursive: true });
  const port = await freePort();
  const anvil = spawnManaged("anvil", foundryBinary("anvil"), [
    "--host", "127.0.0.1", "--port", String(port), "--chain-id", "31337",
    "--gas-limit", "2000000000", "--accounts", "20", "--quiet",
  ]);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const transport = http(rpcUrl, { timeout: 120_000 });
  const client = createPublicClient({ chain: foundry, transport });
  const wallet = createWalletClient({ chain: foundry, transport });
  try {
    await waitFor("anvil", async () => (await client.getChainId().catch(() => 0)) === 31337, {
      timeoutMs: 30_000,
      abort: anvil.crashed,
    });
    const deploymentFile = path.join(opts.dir, "deployment.json");
    const deployment = await deploy({ rpcUrl, deploymentFile, ...forgeDirs() });
    const artifact = await driverArtifact(log);
    const escrow = deployment.contracts.MissionEscrow.address;
    const deployer = anvilAddress(0);
    const hash = await wallet.deployContract({
      account: deployer,
      abi: artifact.abi,
      bytecode: artifact.bytecode.object,
      args: [escrow],
    });
    const driver = (await client.waitForTransactionReceipt({ hash })).contractAddress!;
    const approvals = await Promise.all(
      [...POSTERS, ...PERFORMERS].map((account) =>
        wallet.writeContract({
          account,
          address: deployment.contracts.OperatorRegistry.address,
          abi: operatorsAbi,
          functionName: "setOperator",
          args: [driver, true],
        }),
      ),
    );
    for (const h of approvals) await client.waitForTransactionReceipt({ hash: h });

    const rpc = <T,>(method: string, params: unknown[] = []) => client.request({ method, params } as never) as Promise<T>;
    let salt = 0;
    const chain: LifecycleChain = {
      rpcUrl,
      wsUrl: `ws://127.0.0.1:${port}`,
      deploymentFile,
      deployment,
      anvil,
      driver,
      events: 0,
      missions: 0,
      rpc,
      head: async () => Number(await client.getBlockNumber({ cacheTime: 0 })),
      mine: async (n) => void (await rpc("anvil_mine", [toHex(n)])),
      async generate(missions, g = {}) {
        const perTx = g.perTx ?? 400;
        const openEvery = BigInt(g.openEvery ?? 0);
        const block = await client.getBlock();
        const expiresAt = block.timestamp + 60n * 86_400n;
        const blocks: number[] = [];
        let events = 0;
        for (let done = 0; done < missions; ) {
          const n = Math.min(perTx, missions - done);
          const batch = {
            posters: POSTERS,
            performers: PERFORMERS,
            n: BigInt(n),
            reward: 1_000_000n + BigInt(chain.missions),
            expiresAt,
            salt: BigInt(g.salt ?? salt++),
            openEvery,
          };
          const h = await wallet.writeContract({
            account: LOAD_SENDER,
            address: driver,
            abi: artifact.abi,
            functionName: "run",
            args: [batch],
            gas: BigInt(n) * 220_000n + 200_000n,
          });
          const receipt = await client.waitForTransactionReceipt({ hash: h, pollingInterval: 20, timeout: 300_000 });
          if (receipt.status !== "success") throw new Error(`driver run of ${n} missions reverted`);
          const e = openEvery > 0n ? n * 4 - 2 * Math.floor(n / Number(openEvery)) : n * 4;
          events += e;
          chain.events += e;
          chain.missions += n;
          done += n;
          blocks.push(Number(receipt.blockNumber));
        }
        return { events, blocks };
      },
      stop: () => anvil.stop("SIGINT"),
    };
    return chain;
  } catch (err) {
    await anvil.stop("SIGKILL");
    throw err;
  }
}
