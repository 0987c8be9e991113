// The health check's probe of the database.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

export function healthRepository(db: Db) {
  return {
    /** True when PostgreSQL answers a trivial query. */
    reachable: (): Promise<boolean> => db.execute(sql`SELECT 1`).then(() => true, () => false),
  };
}
export type HealthRepository = ReturnType<typeof healthRepository>;
