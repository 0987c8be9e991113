import pg from "pg";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import * as schema from "./schema.ts";

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

export function createDatabase(url: string, max = 20): Database {
  // A bounded connect: while PostgreSQL is unreachable a request fails fast (503 DATABASE_UNAVAILABLE)
  // instead of hanging; broken connections are dropped by the pool and replaced on the next checkout.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000, keepAlive: true });
  // An idle client losing its connection must not crash the process.
  pool.on("error", () => {});
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}
