// DDL of the indexer's chain tables, derived from the Ponder schema itself (indexer/ponder.schema.ts)
// through drizzle's table config, so the benchmark dataset cannot drift from what Ponder creates:
// same tables, same column names, SQL types and NOT NULLs, same primary keys and indexes.
// Ponder writes the tables into its own schema and exposes them to the API as plain views in the
// views schema (`ponder start --views-schema chain`); chainDdl() does the same.
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import * as ponderSchema from "../../../indexer/ponder.schema.ts";

export interface ChainTableDdl {
  name: string;
  columns: { name: string; type: string; notNull: boolean; primaryKey: boolean }[];
  /** CREATE TABLE without the primary key (bulk loads add it afterwards, see `constraints`). */
  create: string;
  /** ALTER TABLE ... ADD PRIMARY KEY. */
  constraints: string[];
  /** CREATE INDEX statements, one per Ponder index(). */
  indexes: string[];
}

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

function isTable(value: unknown): value is PgTable {
  try {
    getTableConfig(value as PgTable);
    return true;
  } catch {
    return false;
  }
}

/** A SQL literal of a column default (numbers, bigints, booleans, strings), or null for anything else. */
function literal(v: unknown): string | null {
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string") return `'${v.replace(/'/g, "''")}'`;
  return null;
}

/** Every onchainTable of the Ponder schema, as DDL into `tablesSchema`. */
export function chainTables(tablesSchema: string): ChainTableDdl[] {
  const out: ChainTableDdl[] = [];
  for (const value of Object.values(ponderSchema)) {
    if (!isTable(value)) continue;
    const cfg = getTableConfig(value);
    const table = `${ident(tablesSchema)}.${ident(cfg.name)}`;
    const columns = cfg.columns.map((c) => ({ name: c.name, type: c.getSQLType(), notNull: c.notNull, primaryKey: c.primary }));
    // A literal default (`.default(0n)`) goes into the DDL as Ponder's does, so loaders may leave the column out.
    const defaults = new Map(cfg.columns.map((c) => [c.name, c.hasDefault ? literal(c.default) : null]));
    const pk = columns.filter((c) => c.primaryKey).map((c) => ident(c.name));
    const create = `CREATE TABLE ${table} (${columns
      .map((c) => `${ident(c.name)} ${c.type}${c.notNull ? " NOT NULL" : ""}${defaults.get(c.name) ? ` DEFAULT ${defaults.get(c.name)}` : ""}`)
      .join(", ")})`;
    const indexes = cfg.indexes.map((ix, n) => {
      const cols = ix.config.columns.map((col) => ident((col as { name: string }).name));
      const name = ix.config.name ?? `${cfg.name}_${n}_${ix.config.columns.map((col) => (col as { name: string }).name).join("_")}_idx`;
      return `CREATE ${ix.config.unique ? "UNIQUE " : ""}INDEX ${ident(name)} ON ${table} (${cols.join(", ")})`;
    });
    out.push({
      name: cfg.name,
      columns,
      create,
      constraints: pk.length ? [`ALTER TABLE ${table} ADD PRIMARY KEY (${pk.join(", ")})`] : [],
      indexes,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The views the API reads (`<viewsSchema>.<table>` = SELECT * of Ponder's table), as Ponder makes them. */
export function chainViews(tablesSchema: string, viewsSchema: string): string[] {
  return chainTables(tablesSchema).map(
    (t) => `CREATE VIEW ${ident(viewsSchema)}.${ident(t.name)} AS SELECT * FROM ${ident(tablesSchema)}.${ident(t.name)}`,
  );
}
