// Off-chain tables of the disputes area, schema "api". SQL: migrations/0001_disputes.sql.
import { bigint, index, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { api, users } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** One row per stored evidence file; the chain holds `evidence_hash` (sha256 of the bytes). */
export const disputeEvidence = api.table(
  "dispute_evidence",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The dispute's on-chain id (decimal string). */
    disputeOnChainId: text("dispute_on_chain_id").notNull(),
    /** poster | performer */
    side: text("side").notNull(),
    /** 0x + 64 hex, lowercase: sha256 of the file; also the storage key. */
    evidenceHash: text("evidence_hash").notNull(),
    mimeType: text("mime_type").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    uploadedBy: uuid("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("dispute_evidence_lookup_idx").on(t.disputeOnChainId, t.side, t.evidenceHash)],
);

/** The resolver's written decision; the chain holds `resolution_hash` = keccak256(canonical JSON). */
export const disputeResolutions = api.table("dispute_resolutions", {
  resolutionHash: text("resolution_hash").primaryKey(),
  disputeOnChainId: text("dispute_on_chain_id").notNull(),
  resolution: text("resolution").notNull(),
  salt: text("salt").notNull(),
  authorId: uuid("author_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});
