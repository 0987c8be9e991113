// For an e2e file that needs only the API's database: the lane's PostgreSQL after every migration (the
// file starts no API), a small pool closed after the file, and cases run in a transaction always rolled
// back, so nothing a case writes stays.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { inject } from "./lane.ts";
import { createDatabase } from "../../api/db/client.ts";
import { runMigrations } from "../../api/db/migrate.ts";

/** Registers the file's beforeAll/afterAll; the pool is there once beforeAll has run. */
export function migratedDatabase() {
  const db = { pool: undefined as unknown as pg.Pool, rolledBack };
  beforeAll(async () => {
    const migrations = createDatabase(inject("databaseUrl"), 2);
    await runMigrations(migrations).finally(() => migrations.close());
    db.pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  });
  afterAll(async () => {
    await db.pool?.end();
  });
  async function rolledBack(fn: (c: pg.PoolClient) => Promise<void>): Promise<void> {
    const c = await db.pool.connect();
    try {
      await c.query("BEGIN");
      await fn(c);
    } finally {
      await c.query("ROLLBACK");
      c.release();
    }
  }
  return db;
}
