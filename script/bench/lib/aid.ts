// What the in-process CPU aids share (mission-read-cpu.ts, mission-read-ab.ts, discovery-cpu.ts,
// read-mix-cpu.ts; not part of `npm run bench`): an ephemeral PostgreSQL with a smoke dataset, the API
// app of a checkout without a chain, requests through app.request() a few at a time, and CPU time per
// request (user + system of this process: it stays meaningful on a busy machine, wall time does not).
import { ensurePostgres } from "../../lib/postgres.ts";
import { getDataset, type Dataset } from "./dataset.ts";

/** What app.request() takes: the API app, a router, or a baseline Hono app. */
export type App = { request(path: string, init?: RequestInit, env?: unknown): Response | Promise<Response> };

/** What @hono/node-server passes as the app's env: the client address comes from the socket. No
 * `outgoing`: the request path writes its headers onto a served response's ServerResponse when there is
 * one, and a stand-in object made every request of the full app fail (500). */
export const NODE_ENV = { incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" }, headers: {} } };

/** Runs `main(ds)` over a fresh ephemeral PostgreSQL holding a smoke dataset of `missions`, then stops
 * it; an error is printed and exits 1. */
export function runAid(missions: number, main: (ds: Dataset) => Promise<void>): void {
  (async () => {
    const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
    try {
      const ds = await getDataset({ smoke: true, missions, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
      await main(ds);
    } finally {
      await pgh.stop();
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** The API of the checkout at `root` (default: this one) over `ds`, with no chain, no reactors, no
 * keeper and rate limits out of the way; `env` adds or replaces settings. */
export async function aidApi(ds: Dataset, opts: { root?: string; env?: Record<string, string> } = {}) {
  const root = !opts.root || opts.root === "." ? process.cwd() : opts.root;
  const { createServer } = (await import(`${root}/api/app.ts`)) as typeof import("../../../api/app.ts");
  return createServer({
    overrides: {
      NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
      DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
      JWT_SECRET: "bench-aid-secret-bench-aid-secret-0123", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
      KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000", RATE_LIMIT_USER_PER_MIN: "1000000",
      ...opts.env,
    },
  });
}

/** Calls `f(0)` … `f(count - 1)`, `concurrency` at a time. */
export async function batch(f: (i: number) => Promise<unknown>, count: number, concurrency = 16): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (i < count) await f(i++);
  }));
}

/** A request of `paths[i]` (round robin) that must answer 200, its body read; with `bodies`, every body
 * of a path must be the same as the first one seen (across the apps that share the map). */
export const getter = (name: string, app: App, paths: readonly string[], opts: { init?: RequestInit; env?: unknown; bodies?: Map<string, string> } = {}) =>
  async (i: number) => {
    const p = paths[i % paths.length]!;
    const res = await app.request(p, opts.init, opts.env);
    if (res.status !== 200) throw new Error(`${name} ${p}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    const bodies = opts.bodies;
    if (!bodies) return;
    const seen = bodies.get(p);
    if (seen === undefined) bodies.set(p, text);
    else if (seen !== text) throw new Error(`${name}: another body for ${p}\n${seen}\n${text}`);
  };

/** µs of this process's CPU per call of `f` over `n` calls (after `warmUp` calls), user and system apart. */
export async function cpuPer(f: (i: number) => Promise<unknown>, n: number, opts: { warmUp?: number; concurrency?: number } = {}) {
  await batch(f, opts.warmUp ?? 300, opts.concurrency);
  const c0 = process.cpuUsage();
  await batch(f, n, opts.concurrency);
  const c = process.cpuUsage(c0);
  return { us: (c.user + c.system) / n, user: c.user / n, system: c.system / n };
}

/** `rounds` passes of every side in turn, the order reversed every other round (a burst of other work
 * then hits each side alike); returns each side's figures in pass order. */
export async function alternate<K extends string, T>(sides: readonly K[], rounds: number, pass: (side: K) => Promise<T>): Promise<Record<K, T[]>> {
  const out = Object.fromEntries(sides.map((s) => [s, [] as T[]])) as Record<K, T[]>;
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [...sides].reverse() : sides) out[side].push(await pass(side));
  }
  return out;
}

/** Counts the queries sent through `pool` from now on (also the texts, with `texts`). */
export function countQueries(pool: { query: unknown }, texts?: string[]): { count: number; stop(): void } {
  const q = { count: 0, stop: () => {} };
  const orig = (pool.query as (...a: unknown[]) => unknown).bind(pool);
  pool.query = (...a: unknown[]) => {
    q.count++;
    if (texts) texts.push(typeof a[0] === "string" ? a[0] : String((a[0] as { name?: string; text?: string }).name ?? (a[0] as { text?: string }).text));
    return orig(...a);
  };
  q.stop = () => void (pool.query = orig);
  return q;
}
