// Shared by the API's e2e files: an API server on a random port over the e2e stack (global-setup),
// optionally with its own indexer, and SIWE sign-in with anvil's accounts.
import type { LocalAccount } from "viem";
import { createServer, type ApiServer } from "../../api/app.ts";
import { followIndexer, startIndexer, type IndexerHandle } from "../../script/lib/indexer.ts";
import { readChecked, requestInit, type RequestOptions } from "../lib/request.ts";
import { inject } from "./lane.ts";

export interface TestApi {
  url: string;
  server: ApiServer;
  indexer?: IndexerHandle;
  /** The indexer this API reads, whichever runs it (its own or the shared one): to wait for a block. */
  follows?: Pick<IndexerHandle, "url" | "indexedBlock" | "waitForBlock">;
  stop(): Promise<void>;
}

export async function startTestApi(
  overrides: Record<string, string> = {},
  /**
   * indexer: true starts the file's own indexer (to stop, restart or replace it); "shared" uses the
   * one the global setup started (no backfill wait) and falls back to an own one if it is not ready
   * (an earlier file restarted PostgreSQL under it).
   */
  opts: { indexer?: boolean | "shared" } = {},
): Promise<TestApi> {
  let indexer: IndexerHandle | undefined;
  const tag = Math.random().toString(36).slice(2, 8);
  let chainSchema = `chain_api_${tag}`;
  let indexerUrl: string | undefined;
  const shared = opts.indexer === "shared" ? inject("sharedIndexer") : undefined;
  if (shared && (await fetch(`${shared.url}/ready`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false))) {
    indexerUrl = shared.url;
    chainSchema = shared.viewsSchema;
  } else if (opts.indexer) {
    indexer = await startIndexer({
      databaseUrl: inject("databaseUrl"),
      rpcUrl: inject("rpcUrl"),
      wsUrl: inject("wsUrl"),
      deploymentFile: inject("deploymentFile"),
      schema: `ponder_api_${tag}`,
      viewsSchema: chainSchema,
    });
  }
  const server = await createServer({
    overrides: {
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: process.env.E2E_VERBOSE ? "info" : "silent",
      DATABASE_URL: inject("databaseUrl"),
      RPC_URL: inject("rpcUrl"),
      DEPLOYMENT_FILE: inject("deploymentFile"),
      CHAIN_ID: String(inject("deployment").chainId),
      INDEXER_URL: indexerUrl ?? indexer?.url ?? "http://127.0.0.1:9",
      CHAIN_SCHEMA: chainSchema,
      JWT_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123456789",
      RATE_LIMIT_ANON_PER_MIN: "100000",
      RATE_LIMIT_USER_PER_MIN: "100000",
      RATE_LIMIT_PREMIUM_PER_MIN: "100000",
      // Files share the chain's funded accounts within the hour: only the file that measures the budget sets it.
      RELAYER_TX_PER_HOUR: "1000000",
      // Every file signs its accounts in from 127.0.0.1; the issuance limit has its own tests.
      AUTH_MESSAGES_PER_MIN: "100000",
      RELAYER_PRIVATE_KEY: "",
      // Off unless a test asks: files share one chain, and a background pass would act on earlier
      // files' missions once a test moves the chain's clock. Tests call deps.keeper.tick() instead.
      KEEPER_INTERVAL_MS: "0",
      ...overrides,
    },
  });
  const { url } = await server.listen(0);
  const api: TestApi = {
    url,
    server,
    indexer,
    follows: indexer ?? (indexerUrl ? followIndexer(indexerUrl) : undefined),
    // The indexer running now: a file may replace `api.indexer` (restart tests), and the replacement
    // must not outlive the file (a leaked Ponder indexes every later file's blocks).
    async stop() {
      try {
        await server.close();
      } finally {
        await api.indexer?.stop();
        if (indexer !== api.indexer) await indexer?.stop();
      }
    },
  };
  return api;
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  opts: RequestOptions<string> = {},
): Promise<Res<T>> {
  const { headers, body } = requestInit(opts);
  // Bounded: a hung server fails the call with its route instead of the whole test by timeout.
  const res = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(60_000) }).catch((err: unknown) => {
    throw new Error(`${method} ${path}: ${(err as Error).message}`);
  });
  const { status, body: parsed, headers: resHeaders } = await readChecked(method, path, res);
  return { status, body: parsed, headers: resHeaders };
}

export async function signIn(base: string, account: LocalAccount): Promise<string> {
  const m = await call(base, "POST", "/auth/message", { body: { address: account.address } });
  if (m.status !== 200) throw new Error(`auth/message ${m.status} ${JSON.stringify(m.body)}`);
  const signature = await account.signMessage({ message: m.body.message });
  const v = await call(base, "POST", "/auth/verify", { body: { address: account.address, signature } });
  if (v.status !== 200) throw new Error(`auth/verify ${v.status} ${JSON.stringify(v.body)}`);
  return v.body.token;
}

/**
 * True once `reactor`'s cursor has passed every journal entry of blocks ≤ `block`. A cursor moves to
 * the newest journal row that exists, never to Ponder's bound (api/reactors/runner.ts), so compare
 * with the journal itself.
 */
export async function reactorPassed(
  db: { query: (sql: string, params?: unknown[]) => Promise<{ rows: any[] }> },
  chainSchema: string,
  reactor: string,
  block: bigint,
): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT (SELECT last_id FROM api.reactor_cursors WHERE reactor = $1)::text AS cursor,
            (SELECT coalesce(max(id), 0) FROM "${chainSchema}".journal WHERE id < $2)::text AS newest`,
    [reactor, ((block + 1n) * 1_000_000_000n).toString()],
  );
  return rows[0]?.cursor != null && BigInt(rows[0].cursor) >= BigInt(rows[0].newest);
}
