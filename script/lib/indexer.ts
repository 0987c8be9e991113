// The Ponder indexer as a child process, and how far it has indexed.
// Schemas: the API reads the stable views schema "chain"; the tables live in "ponder_<hash>", the
// hash of the indexer's code and the deployment. Ponder refuses to resume a schema written by other
// code (and does not hash code outside indexer/src, e.g. the XP rules in indexer/lib), so a change
// of rules or deployment re-indexes into a new schema, and "chain" switches to it when it is ready.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { repoRoot } from "./paths.ts";
import { freePort, waitFor } from "./ports.ts";
import { type ManagedProcess, spawnManaged } from "./process.ts";

export const INDEXER_VIEWS_SCHEMA = "chain";

/** "ponder_" + 12 hex of sha256 over the indexer's sources, the config, the ABIs, the Ponder version and the deployment file. */
export function indexerSchemaName(deploymentFile: string): string {
  const hash = createHash("sha256");
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) =>
        e.isDirectory()
          ? files(path.join(dir, e.name))
          : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")
            ? [path.join(dir, e.name)]
            : [],
      );
  const sources = [
    ...files(path.join(repoRoot, "indexer")),
    path.join(repoRoot, "ponder.config.ts"),
    path.join(repoRoot, "abis/generated.ts"),
  ];
  for (const file of sources.sort()) hash.update(path.relative(repoRoot, file)).update(fs.readFileSync(file));
  hash.update(fs.readFileSync(path.join(repoRoot, "node_modules/ponder/package.json")));
  hash.update(fs.readFileSync(deploymentFile));
  return `ponder_${hash.digest("hex").slice(0, 12)}`;
}

export interface IndexerOptions {
  databaseUrl: string;
  rpcUrl: string;
  /** The lowest-latency source of new blocks; anvil serves ws on its http port. */
  wsUrl?: string;
  deploymentFile: string;
  /** Default: indexerSchemaName(deploymentFile). */
  schema?: string;
  viewsSchema?: string;
  port?: number;
  /** How long to wait for historical indexing to finish (GET /ready). */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface IndexerHandle {
  /** Ponder's HTTP server: GraphQL at / and /graphql, /ready, /status, /health, /metrics. */
  url: string;
  port: number;
  pid: number;
  schema: string;
  viewsSchema: string;
  crashed: Promise<never>;
  /** The last indexed block (GET /status), or undefined before the first checkpoint. */
  indexedBlock(): Promise<number | undefined>;
  /** Resolves once the indexer has indexed `block` (and is ready). */
  waitForBlock(block: bigint | number, timeoutMs?: number): Promise<void>;
  /** SIGINT, then SIGKILL after 30 s (SIGTERM leaves Ponder's schema lock behind). */
  stop(): Promise<void>;
  /** Ponder's last log lines (for a failure message). */
  tail(): string;
}

const ponderBin = (): string => path.join(repoRoot, "node_modules/ponder/dist/esm/bin/ponder.js");

/**
 * Node flags of the indexer's Ponder process (here and in benchmark B7, which runs our indexer as
 * deployed). A 64 MB semi-space: Ponder keeps every row it writes in its in-memory cache, and in a
 * backfill V8's default young generation (16 MB semi-spaces) is scavenged hundreds of times with
 * much of it surviving; at 100,000 lifecycle events scavenges took 6.6–8.8 s with the default and
 * 3.7–5.9 s with this (docs/decisions.md, "Writes at the floor: indexer backfill, the young generation").
 */
export const INDEXER_NODE_ARGS: readonly string[] = ["--max-semi-space-size=64"];

/** The Ponder process alone (no readiness wait): what startIndexer runs, and what a supervisor restarts. */
export function spawnIndexer(options: IndexerOptions & { schema: string; port: number }): ManagedProcess {
  const viewsSchema = options.viewsSchema ?? INDEXER_VIEWS_SCHEMA;
  const args = [
    ...INDEXER_NODE_ARGS,
    ponderBin(),
    "--root",
    "indexer",
    "--config",
    "../ponder.config.ts",
    "--log-format",
    "json",
    // Diagnostics: PONDER_LOG_LEVEL=debug shows every head, reorg and checkpoint.
    ...(process.env.PONDER_LOG_LEVEL ? ["--log-level", process.env.PONDER_LOG_LEVEL] : []),
    "start",
    "--schema",
    options.schema,
    "--views-schema",
    viewsSchema,
    "--port",
    String(options.port),
    // Ponder is internal (the API proxies /graphql): loopback whatever HOST the API binds.
    "--hostname",
    "127.0.0.1",
  ];
  const env: NodeJS.ProcessEnv = {
    ...ponderEnvironment(process.env),
    ...options.env,
    PONDER_TELEMETRY_DISABLED: "true",
    DATABASE_URL: options.databaseUrl,
    DEPLOYMENT_FILE: path.resolve(options.deploymentFile),
    RPC_URL: options.rpcUrl,
    RPC_WS_URL: options.wsUrl ?? "",
  };
  // Diagnostics: INDEXER_LOG_DIR keeps every line of every indexer in <dir>/<schema>.log.
  const logDir = process.env.INDEXER_LOG_DIR;
  const file = logDir ? (fs.mkdirSync(logDir, { recursive: true }), path.join(logDir, `${options.schema}.log`)) : undefined;
  const onLine = file ? (line: string) => (fs.appendFileSync(file, `${line}\n`), options.log?.(line)) : options.log;
  return spawnManaged("indexer", process.execPath, args, {
    cwd: repoRoot,
    env,
    onLine,
    tailLines: 60,
  });
}

/**
 * The part of the parent's environment that is Ponder's: the process basics and PONDER_*. Ponder reads
 * PORT and HOST, which belong to the API when both run under one supervisor (it then took the API's port).
 */
export function ponderEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = /^(PATH|HOME|USER|LOGNAME|SHELL|TERM|TMPDIR|TMP|TEMP|LANG|LC_[A-Z]+|TZ|CI|NODE_[A-Z_]+|UV_THREADPOOL_SIZE|PONDER_[A-Z_]+)$/;
  return Object.fromEntries(Object.entries(env).filter(([key]) => own.test(key)));
}

/**
 * After the indexer process was killed (SIGKILL, OOM, power loss), Ponder's schema stays locked
 * until its heartbeat expires (25 s after the last beat) and the next start waits for that. A
 * supervisor that KNOWS the old process is gone (it reaped it) may release the lock at once; the
 * next start then runs Ponder's normal crash recovery. Never call this while the process may live.
 */
export async function releaseIndexerLock(db: pg.Pool | pg.Client, schema: string): Promise<void> {
  const q = `"${schema.replace(/"/g, '""')}"."_ponder_meta"`;
  await db
    .query(`UPDATE ${q} SET value = jsonb_set(value, '{is_locked}', '0'::jsonb) WHERE key = 'app'`)
    .catch((err: { code?: string }) => {
      if (err.code !== "42P01") throw err; // no _ponder_meta yet: nothing to release
    });
}

export async function startIndexer(options: IndexerOptions): Promise<IndexerHandle> {
  const schema = options.schema ?? indexerSchemaName(options.deploymentFile);
  const viewsSchema = options.viewsSchema ?? INDEXER_VIEWS_SCHEMA;
  const port = options.port ?? (await freePort());
  const child = spawnIndexer({ ...options, schema, port });
  const url = `http://127.0.0.1:${port}`;
  const indexedBlock = () => indexedBlockOverHttp(url);
  const handle: IndexerHandle = {
    url,
    port,
    pid: child.pid,
    schema,
    viewsSchema,
    crashed: child.crashed,
    indexedBlock,
    async waitForBlock(block, timeoutMs = 30_000) {
      await waitFor(
        `indexer to reach block ${block}`,
        async () => (await isReady(url)) && ((await indexedBlock()) ?? -1) >= Number(block),
        {
          timeoutMs,
          intervalMs: 20,
          abort: child.crashed,
        },
      );
    },
    stop: () => child.stop("SIGINT", 30_000),
    tail: () => child.tail(),
  };
  try {
    await waitFor("the indexer to be ready", () => isReady(url), {
      timeoutMs: options.readyTimeoutMs ?? 180_000,
      intervalMs: 100,
      abort: child.crashed,
    });
    await catchUp(handle, options);
  } catch (err) {
    await child.stop("SIGINT", 30_000);
    throw new Error(`${(err as Error).message}\n${child.tail()}`);
  }
  return handle;
}

/**
 * Ready means the backfill is done, which ends ~30 blocks (the finality depth) behind the head.
 * Live indexing then catches up on the next new block; with a websocket that block may never come
 * on an idle anvil, so an empty one is mined there (chain id 31337 only).
 */
async function catchUp(handle: IndexerHandle, options: IndexerOptions): Promise<void> {
  const rpc = (method: string) =>
    fetch(options.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: [] }),
    }).then(async (r) => ((await r.json()) as { result: string }).result);
  const head = Number(await rpc("eth_blockNumber"));
  if (((await handle.indexedBlock()) ?? -1) >= head) return;
  if (options.wsUrl && Number(await rpc("eth_chainId")) === 31337) {
    await new Promise((r) => setTimeout(r, 200));
    if (((await handle.indexedBlock()) ?? -1) < head) await rpc("evm_mine");
  }
  await handle.waitForBlock(head, 60_000);
}

/** An indexer another process runs, followed over HTTP (its readiness and indexed block): no stop. */
export function followIndexer(url: string): Pick<IndexerHandle, "url" | "indexedBlock" | "waitForBlock"> {
  const indexedBlock = () => indexedBlockOverHttp(url);
  return {
    url,
    indexedBlock,
    async waitForBlock(block, timeoutMs = 30_000) {
      await waitFor(`indexer to reach block ${block}`, async () => (await isReady(url)) && ((await indexedBlock()) ?? -1) >= Number(block), {
        timeoutMs,
        intervalMs: 20,
      });
    },
  };
}

async function isReady(url: string): Promise<boolean> {
  const res = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  return res?.status === 200;
}

/** The block Ponder's HTTP server reports (GET /status), for a process that knows its url. */
export async function indexedBlockOverHttp(url: string): Promise<number | undefined> {
  const res = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  if (!res?.ok) return undefined;
  const status = (await res.json()) as Record<string, { block?: { number: number } }>;
  const blocks = Object.values(status).map((c) => c.block?.number ?? -1);
  return blocks.length ? Math.min(...blocks) : undefined;
}

/**
 * How far the indexer has indexed, read from Postgres by any process (the API): the block of the
 * latest checkpoint, and whether historical indexing is done. Ponder puts views of its
 * _ponder_checkpoint and _ponder_meta tables into the views schema when it becomes ready, so the
 * default reads the stable "chain". Trust `block` only when `ready`; on a restart Ponder rewinds
 * ~30 blocks, so the figure can go backwards for a few seconds.
 */
export async function indexedBlock(
  db: pg.Pool | pg.Client,
  schema = INDEXER_VIEWS_SCHEMA,
): Promise<{ block: number | undefined; ready: boolean }> {
  const q = (table: string) => `"${schema.replace(/"/g, '""')}"."${table}"`;
  const [meta, checkpoints] = await Promise.all([
    db
      .query(`SELECT value FROM ${q("_ponder_meta")} WHERE key = 'app'`)
      .catch(() => ({ rows: [] as { value: { is_ready?: number } }[] })),
    db
      .query(`SELECT latest_checkpoint FROM ${q("_ponder_checkpoint")}`)
      .catch(() => ({ rows: [] as { latest_checkpoint: string }[] })),
  ]);
  const ready = meta.rows[0]?.value?.is_ready === 1;
  const blocks = checkpoints.rows.map((r: { latest_checkpoint: string }) => checkpointBlock(r.latest_checkpoint));
  return { block: blocks.length ? Math.min(...blocks) : undefined, ready };
}

/** Ponder's checkpoint string: 10 digits of timestamp, 16 of chain id, then 16 of block number. */
export const checkpointBlock = (checkpoint: string): number => Number(checkpoint.slice(26, 42));
