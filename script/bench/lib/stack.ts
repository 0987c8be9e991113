// A full write-path stack for benchmarks: a fresh anvil, the deployment, a fresh database in the
// run's PostgreSQL, the Ponder indexer (over ws: lowest lag) and the API as a child process pinned to
// SERVER_CPU. Everything is stopped by stop() (call it in a finally).
//   const stack = await startBenchStack(ctx, { api: true });
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startAnvil, type AnvilHandle } from "../../lib/anvil.ts";
import { deploy, type Deployment } from "../../lib/deploy.ts";
import { startIndexer, type IndexerHandle } from "../../lib/indexer.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged, type ManagedProcess } from "../../lib/process.ts";
import type { BenchContext } from "../types.ts";
import { pinned, SERVER_CPU } from "./pin.ts";
import { freshDatabase } from "../../lib/postgres.ts";

export interface BenchStackOptions {
  /** Start the API (default true). */
  api?: boolean;
  /** Start the indexer (default true; the API needs it for read-your-writes). */
  indexer?: boolean;
  /** Extra API environment. */
  apiEnv?: Record<string, string>;
  /** Lines of the children (default: dropped). */
  log?: (line: string) => void;
  /** After the deploy (automined, fast), mine a block every N seconds instead (a testnet's rhythm). */
  blockTime?: number;
  /** Extra environment of the forge deploy (e.g. RELAYER_ADDRESSES: the key pool granted RELAYER_ROLE). */
  deployEnv?: Record<string, string>;
}

export interface BenchStack {
  rpcUrl: string;
  wsUrl: string;
  deployment: Deployment;
  deploymentFile: string;
  databaseUrl: string;
  /** Ponder's HTTP server (/status, /graphql). */
  indexerUrl: string;
  /** The views schema the API reads. */
  chainSchema: string;
  apiUrl: string;
  apiPid?: number;
  /** anvil's and Ponder's processes (for CPU accounting; indexerPid 0 without an indexer). */
  anvilPid: number;
  indexerPid: number;
  /** Another API process on this stack (the stack's API environment plus `env`); the caller stops it. */
  startApi(env?: Record<string, string>): Promise<ApiProcess>;
  stop(): Promise<void>;
}


export interface ApiProcess {
  url: string;
  pid: number;
  process: ManagedProcess;
  stop(): Promise<void>;
}

/** The API (api/server.ts) as a child process (pinned to SERVER_CPU), answering once /openapi.json does. */
export async function startApiProcess(env: Record<string, string>, opts: { port?: number; log?: (line: string) => void; pin?: boolean } = {}): Promise<ApiProcess> {
  const port = opts.port ?? (await freePort());
  const entry = path.join(repoRoot, "api/server.ts");
  const nodeArgs = ["--import", "tsx", entry];
  const [cmd, args] = opts.pin === false ? [process.execPath, nodeArgs] : pinned(SERVER_CPU, process.execPath, nodeArgs);
  const child = spawnManaged("api", cmd, args, {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "warn", HOST: "127.0.0.1", ...env, PORT: String(port) },
    onLine: opts.log,
    tailLines: 80,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor("the API to answer", async () => (await fetch(`${url}/openapi.json`)).status < 500, {
      timeoutMs: 90_000,
      intervalMs: 100,
      abort: child.crashed,
    });
  } catch (err) {
    await child.stop("SIGKILL");
    throw new Error(`${(err as Error).message}\n${child.tail()}`);
  }
  return { url, pid: child.pid, process: child, stop: () => child.stop("SIGINT", 10_000) };
}

export async function startBenchStack(ctx: BenchContext, opts: BenchStackOptions = {}): Promise<BenchStack> {
  const log = opts.log ?? (() => {});
  const tag = randomBytes(4).toString("hex");
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((err: unknown) => ctx.log(`stack stop: ${String(err)}`));
    stops.length = 0;
  };
  try {
    const [serverUrl, anvil] = await Promise.all([ctx.postgresUrl(), startAnvil({ log })]);
    stops.push((anvil as AnvilHandle).stop);
    const databaseUrl = await freshDatabase(serverUrl, `bench_stack_${tag}`);
    const dir = path.join(ctx.scratchDir, `stack-${tag}`);
    fs.mkdirSync(dir, { recursive: true });
    const deploymentFile = path.join(dir, "deployment.json");
    const deployment = await deploy({ rpcUrl: anvil.rpcUrl, deploymentFile, log, env: opts.deployEnv });
    if (opts.blockTime) {
      const rpc = (method: string, params: unknown[]) =>
        fetch(anvil.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
      await rpc("evm_setAutomine", [false]);
      await rpc("evm_setIntervalMining", [opts.blockTime]);
    }
    const chainSchema = `chain_${tag}`;
    let indexer: IndexerHandle | undefined;
    if (opts.indexer !== false || opts.api !== false) {
      indexer = await startIndexer({
        databaseUrl, rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, deploymentFile,
        schema: `ponder_${tag}`, viewsSchema: chainSchema, log,
      });
      stops.push(indexer.stop);
    }
    const apiEnv = {
      DATABASE_URL: databaseUrl,
      RPC_URL: anvil.rpcUrl,
      DEPLOYMENT_FILE: deploymentFile,
      CHAIN_ID: String(deployment.chainId),
      INDEXER_URL: indexer?.url ?? "",
      CHAIN_SCHEMA: chainSchema,
      JWT_SECRET: "bench-secret-bench-secret-bench-secret-0123",
      RATE_LIMIT_ANON_PER_MIN: "1000000",
      RATE_LIMIT_USER_PER_MIN: "1000000",
      RATE_LIMIT_PREMIUM_PER_MIN: "1000000",
      RELAYER_TX_PER_HOUR: "1000000",
      // No background senders of the relayer key (achievement mints, keeper): a baseline may use it.
      KEEPER_INTERVAL_MS: "0",
      REACTORS_ENABLED: "false",
      ...opts.apiEnv,
    };
    const startApi = (env: Record<string, string> = {}) => startApiProcess({ ...apiEnv, ...env }, { log });
    let apiUrl = "";
    let apiPid: number | undefined;
    if (opts.api !== false) {
      const api = await startApi();
      stops.push(api.stop);
      apiUrl = api.url;
      apiPid = api.pid;
    }
    return {
      rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, deployment, deploymentFile, databaseUrl,
      indexerUrl: indexer?.url ?? "", chainSchema, apiUrl, apiPid, anvilPid: (anvil as AnvilHandle).pid, indexerPid: indexer?.pid ?? 0, startApi, stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** SIWE sign-in against the API (POST /auth/message, sign, POST /auth/verify): a bearer token. */
export async function signIn(apiUrl: string, account: { address: string; signMessage(a: { message: string }): Promise<string> }): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${apiUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const m = await post("/auth/message", { address: account.address });
  const signature = await account.signMessage({ message: m.message });
  return (await post("/auth/verify", { address: account.address, signature })).token as string;
}
