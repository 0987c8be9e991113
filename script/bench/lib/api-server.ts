// Starts the REAL API (api/server.ts, the production entry point) as its own process pinned to the
// server CPU, reading the benchmark dataset. Read-only: no deployment file, so the chain endpoints
// answer 503 and nothing talks to an RPC; every read route (missions, feed, search, nearby) runs
// exactly the production code over PostgreSQL. Background jobs that need a chain (journal reactors,
// dispute keeper) are off: they are not on the request path of any read benchmark.
import crypto from "node:crypto";
import path from "node:path";
import { API_NODE_FLAGS } from "../../../api/node-flags.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { pinned, SERVER_CPU } from "./pin.ts";

export interface BenchApi {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startBenchApi(opts: {
  databaseUrl: string;
  chainSchema: string;
  env?: Record<string, string>;
  /** Extra node flags, e.g. ["--cpu-prof", "--cpu-prof-dir=..."] to profile the API. */
  nodeArgs?: string[];
  /** Every line the API prints (e.g. with nodeArgs ["--trace-gc"]). */
  onLine?: (line: string) => void;
  /** Another checkout's API (an A/B of two trees, mission-read-http-ab.ts); default this one. */
  root?: string;
}): Promise<BenchApi> {
  const root = opts.root ?? repoRoot;
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    // Only warnings and errors: no access-log line per request (observe() logs at info).
    LOG_LEVEL: "warn",
    DATABASE_URL: opts.databaseUrl,
    CHAIN_SCHEMA: opts.chainSchema,
    CHAIN_ID: "31337",
    DEPLOYMENT_FILE: path.join(repoRoot, ".data", "bench", "no-deployment.json"),
    RPC_URL: "http://127.0.0.1:9",
    INDEXER_URL: "http://127.0.0.1:9",
    // A per-run secret (production mode requires one); nothing signs tokens in the read benches.
    JWT_SECRET: crypto.randomBytes(32).toString("hex"),
    // The load comes from one client IP: lift the per-IP limits so it is measured, not 429'd.
    // The limiter itself still runs on every request (its cost is part of the figure).
    RATE_LIMIT_ANON_PER_MIN: "1000000",
    RATE_LIMIT_USER_PER_MIN: "1000000",
    RATE_LIMIT_PREMIUM_PER_MIN: "1000000",
    MIGRATE_ON_START: "false", // the dataset ran the API's migrations already
    REACTORS_ENABLED: "false",
    KEEPER_INTERVAL_MS: "0",
    EVIDENCE_DIR: path.join(repoRoot, ".data", "bench", "evidence"),
    ...opts.env,
  };
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, [
    ...API_NODE_FLAGS,
    ...(opts.nodeArgs ?? []),
    "--import",
    "tsx",
    path.join(root, "api", "server.ts"),
  ]);
  const proc = spawnManaged("bench-api", cmd, args, { cwd: root, env, ...(opts.onLine ? { onLine: opts.onLine } : {}) });
  const url = `http://127.0.0.1:${port}`;
  try {
    // /health is 503 without an indexer (none runs here); ready = it answers and reaches the database.
    // ... and its feed index has loaded (api/app.ts warms it at start): nothing measured shares the CPU with that load.
    const ready = async () => {
      const checks = ((await (await fetch(`${url}/health`)).json()) as { checks?: { database?: boolean; feedIndex?: { ready?: boolean } } }).checks;
      return checks?.database === true && checks.feedIndex?.ready === true;
    };
    await waitFor("the bench API", ready, {
      timeoutMs: 180_000,
      abort: proc.crashed,
    });
  } catch (err) {
    await proc.stop().catch(() => {});
    throw new Error(`${(err as Error).message}\n${proc.tail()}`);
  }
  return {
    url,
    pid: proc.pid,
    // SIGTERM: api/server.ts closes the server and exits (and flushes a --cpu-prof profile).
    stop: () => proc.stop("SIGTERM", 10_000),
  };
}
