// The API's own off-chain tables, in the Postgres schema "api" (Ponder never touches it).
// Changes: edit this file, then `npm run db:generate` and commit api/db/migrations.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const api = pgSchema("api");
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = api.table("users", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Lowercase 0x address. */
  evmAddress: text("evm_address").notNull().unique(),
  displayName: text("display_name").notNull().default(""),
  bio: text("bio").notNull().default(""),
  avatar: text("avatar").notNull().default(""),
  solanaAddress: text("solana_address"),
  /** Premium rate-limit tier; set by an operator (SQL / admin tool), never by the user. */
  premium: boolean("premium").notNull().default(false),
  /** Tokens carry the epoch they were issued in; a vault deletion bumps it, so older tokens stop at once. */
  sessionEpoch: integer("session_epoch").notNull().default(0),
  /**
   * The displayName visibility of the vault's permissions (`profileVisibility.displayName`, the JSON
   * value; "public" without one), kept by a trigger on api.vaults (migration 0032). The single
   * mission's view (api/repositories/mission-view.sql.ts) reads it here instead of joining the vault.
   */
  nameVisibility: jsonb("name_visibility").notNull().default(sql`'"public"'::jsonb`),
  createdAt: ts("created_at").notNull().defaultNow(),
  lastActiveAt: ts("last_active_at").notNull().defaultNow(),
});

export const vaults = api.table("vaults", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  permissions: jsonb("permissions").notNull(),
  initializedAt: ts("initialized_at").notNull().defaultNow(),
  lastSyncedAt: ts("last_synced_at"),
});

export const authNonces = api.table(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    address: text("address").notNull(),
    domain: text("domain").notNull(),
    /** The exact EIP-4361 text handed out; /auth/verify checks the signature against it. */
    message: text("message").notNull(),
    issuedAt: ts("issued_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    consumedAt: ts("consumed_at"),
  },
  (t) => [index("auth_nonces_address_idx").on(t.address, t.expiresAt)],
);

export const idempotencyKeys = api.table(
  "idempotency_keys",
  {
    /** "user:<uuid>" or "ip:<address>" for unauthenticated calls. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /** in_flight | done */
    state: text("state").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
    /** The API process (api_instances.id) running an in-flight request; dead owner = reclaimable. */
    owner: uuid("owner"),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_expires_idx").on(t.expiresAt)],
);

/** Liveness of API processes: each beats every second; an in-flight claim of a silent one is stale. */
export const apiInstances = api.table("api_instances", {
  id: uuid("id").primaryKey(),
  heartbeatAt: ts("heartbeat_at").notNull().defaultNow(),
});

/** The relayer's next nonce per (chain, sender), shared by every API copy (row lock = ordering). */
export const relayerNonces = api.table(
  "relayer_nonces",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "bigint" }).notNull(),
  },
  (t) => [primaryKey({ name: "relayer_nonces_pk", columns: [t.chainId, t.address] })],
);

/**
 * The relayer's outbox: every signed transaction is recorded (with its raw bytes) before it is
 * broadcast, so a crash between broadcast and response never leads to a second transaction: a retry
 * with the same Idempotency-Key (scope, key, seq = n-th send of the request) resumes this row.
 */
export const relayerOutbox = api.table(
  "relayer_outbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nonce: bigint("nonce", { mode: "bigint" }).notNull(),
    hash: text("hash").notNull(),
    raw: text("raw").notNull(),
    fn: text("fn").notNull(),
    /** signed | sent | mined | reverted | dropped | failed */
    status: text("status").notNull(),
    scope: text("scope"),
    key: text("key"),
    /** The Idempotency-Key's request hash: the same key with another body is another request. */
    requestHash: text("request_hash"),
    seq: integer("seq"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("relayer_outbox_request_idx").on(t.scope, t.key, t.requestHash, t.seq),
    index("relayer_outbox_pending_idx").on(t.chainId, t.address, t.nonce).where(sql`"status" IN ('signed', 'sent')`),
    index("relayer_outbox_hash_idx").on(t.hash),
  ],
);

/** Each broadcast of a replaced relayer tx (the first and every fee bump); the outbox row holds the latest. */
export const relayerBroadcasts = api.table(
  "relayer_broadcasts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    outboxId: bigint("outbox_id", { mode: "number" }).notNull().references(() => relayerOutbox.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    raw: text("raw").notNull(),
    maxFeePerGas: numeric("max_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    maxPriorityFeePerGas: numeric("max_priority_fee_per_gas", { precision: 78, scale: 0 }).notNull(),
    sentAt: ts("sent_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("relayer_broadcasts_hash_idx").on(t.hash), index("relayer_broadcasts_outbox_idx").on(t.outboxId)],
);

/**
 * One row per details commitment. A mission shows a row only while the chain holds its hash AND the row
 * was written for that mission (escrow + on-chain id): the hash is public, and a copied commitment must
 * not carry another mission's text and exact location.
 */
export const missionDetails = api.table(
  "mission_details",
  {
    detailsHash: text("details_hash").primaryKey(),
    /** Lowercase escrow address; set with `onChainId` once the chain has the mission. */
    escrowAddress: text("escrow_address"),
    onChainId: text("on_chain_id"),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    radius: doublePrecision("radius"),
    metadata: jsonb("metadata").notNull().default(sql`'{}'::jsonb`),
    /** The reputation a performer needs (null: none); part of the hashed details when set. */
    minReputation: integer("min_reputation"),
    /** A premium mission: accepting (and posting) it needs the premium_missions unlock (level 6). */
    premium: boolean("premium").notNull().default(false),
    salt: text("salt").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("mission_details_mission_idx").on(t.onChainId, t.escrowAddress)],
);

export const missionProofs = api.table("mission_proofs", {
  proofHash: text("proof_hash").primaryKey(),
  missionOnChainId: text("mission_on_chain_id").notNull(),
  proofType: text("proof_type").notNull(),
  proofData: text("proof_data").notNull(),
  notes: text("notes").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** A dispute's private reason; shown only for the dispute it was written for (escrow + on-chain id). */
export const disputeRecords = api.table("dispute_records", {
  id: uuid("id").primaryKey().defaultRandom(),
  missionOnChainId: text("mission_on_chain_id").notNull(),
  /** Lowercase escrow address of the dispute. */
  escrowAddress: text("escrow_address"),
  disputeOnChainId: text("dispute_on_chain_id"),
  initiatorId: uuid("initiator_id").references(() => users.id, { onDelete: "set null" }),
  reason: text("reason").notNull(),
  evidence: text("evidence"),
  reasonHash: text("reason_hash").notNull().unique(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const rateLimitBuckets = api.table("rate_limit_buckets", {
  key: text("key").primaryKey(),
  /** Start of the current fixed window, ms since epoch. */
  windowStart: bigint("window_start", { mode: "number" }).notNull(),
  count: integer("count").notNull(),
});
