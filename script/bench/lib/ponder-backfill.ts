// Runs one Ponder app over a finished chain and times its backfill (benchmark B7): wall time from
// the process spawn, and from Ponder's "Started backfill indexing" (after its build and schema
// set-up), to its checkpoint reaching the chain head; the summed "Indexed block range" durations
// (prefetch + indexing functions + flush + commit of each batch); and Ponder's own
// ponder_historical_transform_duration steps from /metrics.
import fs from "node:fs";
import path from "node:path";
import { INDEXER_NODE_ARGS, indexedBlockOverHttp } from "../../lib/indexer.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { processCpuMicros } from "./proc-cpu.ts";

export interface PonderApp {
  name: string;
  /** --root (absolute) and --config (relative to the root). */
  root: string;
  config: string;
  cwd: string;
  /** Node flags the app is launched with (our indexer: those of script/lib/indexer.ts). */
  nodeArgs?: readonly string[];
}

export interface BackfillTiming {
  app: string;
  /** Spawn → checkpoint ≥ head. */
  wallSeconds: number;
  /** "Started backfill indexing" → checkpoint ≥ head (excludes Ponder's build and migrations). */
  backfillSeconds: number;
  /** Spawn → "Started backfill indexing". */
  startupSeconds: number;
  /** CPU time (user + system) of the Ponder process from "Started backfill indexing" to the checkpoint: stays meaningful on a loaded machine. */
  backfillCpuSeconds: number;
  /** Sum of "Indexed block range" durations. */
  indexSeconds: number;
  /** ponder_historical_transform_duration by step, seconds. */
  steps: Record<string, number>;
  /** ponder_historical_extract_duration by step (reading the synced logs back, building and decoding events), seconds. */
  extract: Record<string, number>;
  /** ponder_indexing_function_duration sums by event, seconds (time inside the handlers). */
  handlers: Record<string, number>;
  /** ponder_indexing_cache_query_duration sums by table:method (method flush = that table's COPY/UPDATE in the load step), seconds. */
  cacheQueries: Record<string, number>;
  /** ponder_indexing_store_queries_total by table:method. */
  storeCalls: Record<string, number>;
  /** Successful RPC requests by method (count and summed seconds, from ponder_rpc_request_duration). */
  rpc: Record<string, { requests: number; seconds: number }>;
  batches: number;
  indexedEvents: number;
}

/** Our indexer as a PonderApp (the same command line as script/lib/indexer.ts). */
export const OUR_INDEXER: PonderApp = {
  name: "indexer",
  root: path.join(repoRoot, "indexer"),
  config: "../ponder.config.ts",
  cwd: repoRoot,
  nodeArgs: INDEXER_NODE_ARGS,
};

/** The baseline app, copied into `dir` so Ponder's generated files stay out of the repo. */
export function baselineApp(dir: string): PonderApp {
  const root = path.join(dir, "baseline-ponder");
  fs.rmSync(root, { recursive: true, force: true });
  fs.cpSync(path.join(repoRoot, "script/bench/baseline-ponder"), root, { recursive: true });
  return { name: "baseline", root, config: "ponder.config.ts", cwd: root };
}

/** A Ponder app (`ponder start`) on `port`, in `schema` with its views in `<schema>_v`, against this chain. */
export function spawnPonder(
  app: PonderApp,
  o: { port: number; schema: string; databaseUrl: string; deploymentFile: string; rpcUrl: string; wsUrl: string; hostname?: string; nodeArgs?: string[] },
  io: { tailLines: number; onLine?: (line: string) => void },
) {
  return spawnManaged(
    app.name,
    process.execPath,
    [
      ...(app.nodeArgs ?? []),
      ...(o.nodeArgs ?? []),
      path.join(repoRoot, "node_modules/ponder/dist/esm/bin/ponder.js"),
      "--root", app.root, "--config", app.config, "--log-format", "json",
      "start", "--schema", o.schema, "--views-schema", `${o.schema}_v`, "--port", String(o.port),
      ...(o.hostname ? ["--hostname", o.hostname] : []),
    ],
    {
      cwd: app.cwd,
      env: {
        ...process.env,
        PONDER_TELEMETRY_DISABLED: "true",
        DATABASE_URL: o.databaseUrl,
        DEPLOYMENT_FILE: o.deploymentFile,
        RPC_URL: o.rpcUrl,
        RPC_WS_URL: o.wsUrl,
      },
      ...io,
    },
  );
}

export async function timeBackfill(
  app: PonderApp,
  o: {
    databaseUrl: string;
    rpcUrl: string;
    deploymentFile: string;
    schema: string;
    head: number;
    timeoutMs?: number;
    /** Extra node flags for the Ponder process (e.g. --cpu-prof). */
    nodeArgs?: string[];
    log?: (s: string) => void;
    /** Every line the app prints (its JSON log), e.g. to keep a timeline. */
    onLine?: (line: string) => void;
  },
): Promise<BackfillTiming> {
  const port = await freePort();
  const marks: { backfill?: number; backfillCpu?: number } = {};
  let indexMs = 0;
  let batches = 0;
  let indexedEvents = 0;
  const t0 = Date.now();
  const child = spawnPonder(app, { ...o, port, wsUrl: "" /* both apps poll over http: the same transport */ }, {
      tailLines: 40,
      onLine(line) {
        o.onLine?.(line);
        if (line.includes("Started backfill indexing") && marks.backfill === undefined) {
          marks.backfill = Date.now();
          marks.backfillCpu = processCpuMicros(child.pid);
        }
        if (line.includes("Indexed block range")) {
          try {
            const j = JSON.parse(line) as { duration?: number; event_count?: number };
            indexMs += j.duration ?? 0;
            indexedEvents += j.event_count ?? 0;
            batches++;
          } catch {
            // not JSON
          }
        }
        if (/"level":(50|60)/.test(line)) o.log?.(`${app.name}: ${line.slice(0, 400)}`);
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${app.name} to index block ${o.head}`, async () => ((await indexedBlockOverHttp(url)) ?? -1) >= o.head, {
      timeoutMs: o.timeoutMs ?? 300_000,
      intervalMs: 25,
      abort: child.crashed,
    });
    const end = Date.now();
    const endCpu = processCpuMicros(child.pid);
    const metrics = await fetch(`${url}/metrics`).then((r) => r.text()).catch(() => "");
    const steps: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_historical_transform_duration\{step="(\w+)"\} ([\d.e+-]+)/gm))
      steps[m[1]!] = Number(m[2]) / 1000;
    const extract: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_historical_extract_duration\{step="(\w+)"\} ([\d.e+-]+)/gm))
      extract[m[1]!] = Number(m[2]) / 1000;
    const handlers: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_indexing_function_duration_sum\{([^}]*)\} ([\d.e+-]+)/gm)) {
      const event = /event="([^"]+)"/.exec(m[1]!)?.[1];
      if (event) handlers[event] = (handlers[event] ?? 0) + Number(m[2]) / 1000;
    }
    const cacheQueries: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_indexing_cache_query_duration_sum\{([^}]*)\} ([\d.e+-]+)/gm)) {
      const table = /table="([^"]+)"/.exec(m[1]!)?.[1];
      const method = /method="([^"]+)"/.exec(m[1]!)?.[1];
      if (table && method) cacheQueries[`${table}:${method}`] = Number(m[2]) / 1000;
    }
    const storeCalls: Record<string, number> = {};
    for (const m of metrics.matchAll(/^ponder_indexing_store_queries_total\{table="([^"]+)",method="([^"]+)"\} ([\d.e+-]+)/gm))
      storeCalls[`${m[1]}:${m[2]}`] = Number(m[3]);
    const rpc: Record<string, { requests: number; seconds: number }> = {};
    for (const m of metrics.matchAll(/^ponder_rpc_request_duration_(count|sum)\{([^}]*)\} ([\d.e+-]+)/gm)) {
      const method = /method="([^"]+)"/.exec(m[2]!)?.[1];
      if (!method) continue;
      const r = (rpc[method] ??= { requests: 0, seconds: 0 });
      if (m[1] === "count") r.requests = Number(m[3]);
      else r.seconds = Number(m[3]) / 1000;
    }
    return {
      app: app.name,
      wallSeconds: (end - t0) / 1000,
      backfillSeconds: (end - (marks.backfill ?? t0)) / 1000,
      startupSeconds: ((marks.backfill ?? t0) - t0) / 1000,
      backfillCpuSeconds: (endCpu - (marks.backfillCpu ?? 0)) / 1e6,
      indexSeconds: indexMs / 1000,
      steps,
      extract,
      handlers,
      cacheQueries,
      storeCalls,
      rpc,
      batches,
      indexedEvents,
    };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${child.tail()}`);
  } finally {
    await child.stop("SIGINT", 20_000);
  }
}
