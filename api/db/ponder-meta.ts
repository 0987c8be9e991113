// Ponder's own bookkeeping tables in the views schema (not in indexer/ponder.schema.ts): the app's
// metadata and each chain's checkpoint. The same columns as Ponder's `getPonderMetaTable` /
// `getPonderCheckpointTable` (ponder/dist/esm/database/index.js, not exported by the package), so their
// rows have one type in the API.
import { pgSchema } from "drizzle-orm/pg-core";

export function ponderMetaTables(schemaName: string) {
  const s = pgSchema(schemaName);
  return {
    meta: s.table("_ponder_meta", (t) => ({
      key: t.text().primaryKey(),
      /** The app's row (key 'app'): `is_ready` is 1 once the historical backfill is done. */
      value: t.jsonb().$type<{ is_ready?: 0 | 1 } & Record<string, unknown>>().notNull(),
    })),
    checkpoint: s.table("_ponder_checkpoint", (t) => ({
      chainName: t.text().primaryKey(),
      chainId: t.bigint({ mode: "number" }).notNull(),
      safeCheckpoint: t.varchar({ length: 75 }).notNull(),
      /** 10 digits of block timestamp, 16 of chain id, 16 of block number, then the position in the block. */
      latestCheckpoint: t.varchar({ length: 75 }).notNull(),
      finalizedCheckpoint: t.varchar({ length: 75 }).notNull(),
    })),
  };
}

type Tables = ReturnType<typeof ponderMetaTables>;
export type PonderMetaRow = Tables["meta"]["$inferSelect"];
export type PonderCheckpointRow = Tables["checkpoint"]["$inferSelect"];
