// One row per escrow lifecycle event: what a minimal indexer writes.
import { onchainTable } from "ponder";

export const escrowEvents = onchainTable("escrow_events", (t) => ({
  id: t.text().primaryKey(), // `${block}:${logIndex}`
  name: t.text().notNull(),
  missionId: t.bigint().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));
