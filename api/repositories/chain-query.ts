// Queries of Ponder's views (the chain schema). The views are missing until the indexer has started
// once: that answers 503 INDEXER_UNAVAILABLE, not 500.
import type pg from "pg";
import { AppError } from "../lib/errors.ts";

const MISSING = new Set(["3F000", "42P01"]); // invalid_schema_name, undefined_table

/** Awaits a drizzle read of the chain views, mapping "not there yet" to INDEXER_UNAVAILABLE. */
export async function chainRead<T>(query: PromiseLike<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (MISSING.has((err as { code?: string }).code ?? "")) {
      throw new AppError("INDEXER_UNAVAILABLE", "Indexed chain data is not available yet");
    }
    throw err;
  }
}

export async function chainQuery<R extends pg.QueryResultRow>(
  pool: pg.Pool | pg.PoolClient,
  text: string,
  params: unknown[] = [],
) {
  try {
    return await pool.query<R>(text, params);
  } catch (err) {
    if (MISSING.has((err as { code?: string }).code ?? "")) {
      throw new AppError("INDEXER_UNAVAILABLE", "Indexed chain data is not available yet");
    }
    throw err;
  }
}
