import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createPublicClient, http, type Address, type Hex, type PublicClient } from "viem";
import { CONTRACT_NAMES, normalizeDeployment, type ContractName, type Deployment } from "../../domain/index.ts";
import { knownChain } from "../../indexer/lib/known-chains.ts";
import { foundryBinary } from "./foundry.ts";
import { defaultDeploymentFile, repoRoot } from "./paths.ts";

export { CONTRACT_NAMES, type ContractName, type Deployment };

export interface DeployOptions {
  rpcUrl: string;
  /** Default: DEPLOYMENT_FILE, else deployments/<chainId>.json. Any path: other paths are staged under deployments/. */
  deploymentFile?: string;
  /**
   * Extra environment for the script (DEPLOYER_PRIVATE_KEY, RELAYER_ADDRESS, STABLECOIN_ADDRESS, ...);
   * process.env is inherited. On a known chain the canonical addresses are the defaults.
   */
  env?: NodeJS.ProcessEnv;
  /** Forge build dirs (default: foundry.toml's out/ and cache/). */
  outDir?: string;
  cachePath?: string;
  log?: (line: string) => void;
}

export function readDeployment(file: string): Deployment | undefined {
  if (!fs.existsSync(file)) return undefined;
  return normalizeDeployment(JSON.parse(fs.readFileSync(file, "utf8")));
}

/** The deployment in `file` when it is for this chain and every contract's code is on it. */
export async function findDeployment(rpcUrl: string, file?: string): Promise<Deployment | undefined> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await client.getChainId();
  const deployment = readDeployment(resolveFile(file, chainId));
  if (!deployment || deployment.chainId !== chainId) return undefined;
  for (const name of CONTRACT_NAMES) {
    const address = deployment.contracts[name]?.address;
    if (!address) return undefined;
    const code = await client.getCode({ address });
    if (!code || code === "0x") return undefined;
  }
  if (deployment.executor) {
    const code = await client.getCode({ address: deployment.executor });
    if (!code || code === "0x") return undefined;
  }
  return deployment;
}

function resolveFile(file: string | undefined, chainId: number): string {
  const chosen = file ?? process.env.DEPLOYMENT_FILE;
  return chosen ? path.resolve(chosen) : defaultDeploymentFile(chainId);
}

/**
 * Runs script/Deploy.s.sol against `rpcUrl` (idempotent: an existing deployment in the file is
 * reused and only missing set-up is sent), then records each contract's exact deployment block.
 */
export async function deploy(options: DeployOptions): Promise<Deployment> {
  const log = options.log ?? (() => {});
  const client = createPublicClient({ transport: http(options.rpcUrl) });
  const chainId = await client.getChainId();
  const file = resolveFile(options.deploymentFile, chainId);

  // foundry.toml lets scripts write only under deployments/: stage any other path there.
  const deploymentsDir = path.join(repoRoot, "deployments");
  const inside = path.dirname(file) === deploymentsDir;
  const staged = inside ? file : path.join(deploymentsDir, `.staging-${process.pid}-${randomBytes(4).toString("hex")}.json`);
  fs.mkdirSync(deploymentsDir, { recursive: true });
  if (!inside && fs.existsSync(file)) fs.copyFileSync(file, staged);

  try {
    const args = ["script", "script/Deploy.s.sol", "--rpc-url", options.rpcUrl, "--broadcast"];
    if (chainId !== 31337) args.push("--slow"); // wait for each receipt on a real network
    if (options.outDir) args.push("--out", options.outDir);
    if (options.cachePath) args.push("--cache-path", options.cachePath);
    const env = { ...canonicalEnv(chainId), ...process.env, ...options.env, DEPLOYMENT_FILE: path.relative(repoRoot, staged) };
    await runForge(args, env, log);

    const deployment = readDeployment(staged);
    if (!deployment) throw new Error(`forge script did not write ${staged}`);
    await refineStartBlocks(client, deployment);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const result = ordered(deployment);
    fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    if (!inside) fs.rmSync(staged, { force: true });
  }
}

/** A known chain's USDC, EAS and SchemaRegistry, for the script to reuse instead of deploying its own. */
export function canonicalEnv(chainId: number): NodeJS.ProcessEnv {
  const known = knownChain(chainId);
  if (!known) return {};
  return { STABLECOIN_ADDRESS: known.usdc, EAS_ADDRESS: known.eas, SCHEMA_REGISTRY_ADDRESS: known.schemaRegistry };
}

function runForge(args: string[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(foundryBinary("forge"), args, { cwd: repoRoot, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      for (const line of `${stdout}\n${stderr}`.split("\n")) if (line.trim()) log(line);
      if (err) reject(new Error(`forge ${args.slice(0, 2).join(" ")} failed:\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

/**
 * The script records the block it simulated on, a lower bound. When the contract has no code at the
 * recorded block, find the first block that has it (binary search; needs historical state).
 */
async function refineStartBlocks(client: PublicClient, d: Deployment): Promise<void> {
  const latest = Number(await client.getBlockNumber({ cacheTime: 0 })); // viem caches block numbers for 4 s
  const hasCode = async (address: Address, block: number) => {
    const code = await client.getCode({ address, blockNumber: BigInt(block) });
    return !!code && code !== "0x";
  };
  for (const name of CONTRACT_NAMES) {
    const entry = d.contracts[name];
    try {
      if (await hasCode(entry.address, entry.startBlock)) continue; // already exact (a reused deployment)
      let lo = entry.startBlock;
      let hi = latest;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (await hasCode(entry.address, mid)) hi = mid;
        else lo = mid + 1;
      }
      entry.startBlock = lo;
    } catch {
      // a node without the historical state: keep the lower bound
    }
  }
  d.startBlock = Math.min(...CONTRACT_NAMES.map((n) => d.contracts[n].startBlock));
}

function ordered(d: Deployment): Deployment {
  return {
    chainId: d.chainId,
    deployer: d.deployer,
    relayer: d.relayer,
    ...(d.executor ? { executor: d.executor } : {}),
    contracts: Object.fromEntries(
      CONTRACT_NAMES.map((n) => [n, { address: d.contracts[n].address, startBlock: d.contracts[n].startBlock }]),
    ) as Deployment["contracts"],
    ratingSchemaUid: d.ratingSchemaUid,
    startBlock: d.startBlock,
  };
}
