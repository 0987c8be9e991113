// How the discovery reads run: as named (prepared) statements. Their SQL texts are few (one per filter
// combination), so each connection plans each text once.
import crypto from "node:crypto";
import type pg from "pg";
import { AppError } from "../lib/errors.ts";

/** Statement name per SQL text (the texts are few and fixed; hashing one per request cost ~10 µs). */
const statementNames = new Map<string, string>();
const MISSING = new Set(["3F000", "42P01"]); // invalid_schema_name, undefined_table

/** Runs `text` as a named statement; the chain views missing (as chainQuery) is INDEXER_UNAVAILABLE. */
export async function namedQuery<R extends pg.QueryResultRow>(pool: pg.Pool | pg.PoolClient, text: string, params: unknown[] = []) {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= 1000) statementNames.clear(); // a bound, should a text ever carry a value
    statementNames.set(text, (name = `disc_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`));
  }
  try {
    return await pool.query<R>({ name, text, values: params });
  } catch (err) {
    // As chainQuery: the chain views are missing until the indexer has started once.
    if (MISSING.has((err as { code?: string }).code ?? "")) throw new AppError("INDEXER_UNAVAILABLE", "Indexed chain data is not available yet");
    throw err;
  }
}
