import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema.ts";

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

/**
 * A pg pool whose lost connections never crash the process. pg-pool listens for an idle client's
 * "error" only while the client sits in the pool; a checked-out client (a transaction, a held advisory
 * lock) whose server goes away emits "error" with no listener, an uncaught exception. Every client gets
 * a listener of its own when it connects; the query in flight still fails with the error, and the
 * pool drops the broken client when it is released.
 */
export function createPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

/**
 * The API's connection settings: `warm` connections, once opened, stay open (pg-pool's `min`) and the
 * rest close after a minute idle. A new connection is a new server process whose caches are cold and
 * whose prepared statements are planned again: about 20-30 ms on the first statement at 1M missions,
 * where a warm one answers in 2-3 ms (pg-pool's default closes idle connections after 10 s, so a
 * steady load kept paying it). Scripts keep the default (0), so an idle pool lets them exit.
 */
export const API_POOL = { max: 20, warm: 8, idleTimeoutMillis: 60_000 } as const;

/**
 * Opens `n` connections at once (pg-pool opens them only when requests need them, and its `min` only
 * keeps them) and runs `statements` on each, so they are planned against warm catalog caches before
 * any request arrives. Measured on the 1M-mission dataset: a new connection costs its first request
 * ~10 ms to connect (SCRAM authentication included) and 5-15 ms more on its first discovery
 * statement; a pool that grew under the first burst of /feed requests put that on the burst's tail.
 * A statement that fails (e.g. the chain views before the indexer's first start) is skipped.
 */
export async function prefill(pool: pg.Pool, n: number, statements: readonly string[]): Promise<number> {
  const opened = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  const clients = opened.flatMap((c) => (c.status === "fulfilled" ? [c.value] : []));
  try {
    await Promise.all(clients.map(async (c) => {
      for (const sql of statements) await c.query(sql).catch(() => {});
    }));
  } finally {
    for (const c of clients) c.release();
  }
  return clients.length;
}

export function createDatabase(url: string, max = 20, opts: { warm?: number; idleTimeoutMillis?: number } = {}): Database {
  // A bounded connect: while PostgreSQL is unreachable a request fails fast (503 DATABASE_UNAVAILABLE)
  // instead of hanging; broken connections are dropped by the pool and replaced on the next checkout.
  const pool = createPool({
    connectionString: url, max, connectionTimeoutMillis: 10_000, keepAlive: true,
    ...(opts.warm ? { min: opts.warm } : {}),
    ...(opts.idleTimeoutMillis ? { idleTimeoutMillis: opts.idleTimeoutMillis } : {}),
  });
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}
