import { fileURLToPath } from "node:url";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { Database } from "./client.ts";

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("./migrations", import.meta.url));
// Arbitrary constant: serialises migrations of several API copies starting at once.
const MIGRATION_LOCK = 7_301_001;

/** Applies committed migrations; drizzle's journal lives in api.__drizzle_migrations. */
export async function runMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER, migrationsSchema: "api" });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}
