// Ponder's tables (indexer/ponder.schema.ts), typed for drizzle, in the views schema this API reads
// (CHAIN_SCHEMA). Ponder's own `setDatabaseSchema` sets the schema on the shared table objects, one
// name per process; tests run several APIs with different views schemas in one process, so every
// API gets copies of the tables that differ only in their schema.
import { is, Table } from "drizzle-orm";
import * as ponderSchema from "../../indexer/ponder.schema.ts";

export type ChainTables = typeof ponderSchema;

const SCHEMA = (Table as unknown as { Symbol: { Schema: symbol } }).Symbol.Schema;

export function chainTables(schemaName: string): ChainTables {
  const entries = Object.entries(ponderSchema).map(([name, value]) => {
    if (!is(value, Table)) return [name, value];
    const copy: object = Object.create(value);
    Object.defineProperty(copy, SCHEMA, { value: schemaName });
    return [name, copy];
  });
  return Object.fromEntries(entries) as ChainTables;
}
