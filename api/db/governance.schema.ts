// Governance: proposals and their signed votes, schema "api". Signals the admin acts on, never
// executed on chain; each vote carries the voter's EIP-712 signature so anyone can check it.
import { index, jsonb, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { api } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const governanceProposals = api.table(
  "governance_proposals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lowercase 0x address of the level-16 user who proposed it. */
    proposer: text("proposer").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    choices: jsonb("choices").$type<string[]>().notNull(),
    endsAt: ts("ends_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("governance_proposals_created_idx").on(t.createdAt)],
);

/** One row per wallet and proposal: a later vote replaces it until the proposal ends. */
export const governanceVotes = api.table(
  "governance_votes",
  {
    proposalId: uuid("proposal_id")
      .notNull()
      .references(() => governanceProposals.id, { onDelete: "cascade" }),
    /** Lowercase 0x address that signed. */
    voter: text("voter").notNull(),
    choice: text("choice").notNull(),
    /** 65-byte EIP-712 signature over { proposalId, choice } (GOVERNANCE_EIP712). */
    signature: text("signature").notNull(),
    votedAt: ts("voted_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.proposalId, t.voter] })],
);
