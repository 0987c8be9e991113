// The outbox's row shape (api.relayer_outbox): its columns, their mapping and the request a row was
// sent for. Shared by the outbox repository and the idempotency claim, which reads a request's first
// send in its own statement.
import type { Hex } from "viem";

/** signed = recorded before broadcast, not known mined yet (it may or may not be in a mempool). */
export type OutboxStatus = "signed" | "mined" | "reverted" | "dropped" | "failed";

export interface OutboxRow {
  id: number;
  /** The key that signed it (lowercase). */
  address: string;
  nonce: bigint;
  hash: Hex;
  raw: Hex;
  fn: string;
  status: OutboxStatus;
  blockNumber: bigint | null;
}

export interface RequestRef {
  scope: string;
  key: string;
  requestHash: string;
  seq: number;
}

export const toOutboxRow = (r: Record<string, unknown>): OutboxRow => ({
  id: Number(r.id),
  address: r.address as string,
  nonce: BigInt(r.nonce as string),
  hash: r.hash as Hex,
  raw: r.raw as Hex,
  fn: r.fn as string,
  status: r.status as OutboxStatus,
  blockNumber: r.block_number === null || r.block_number === undefined ? null : BigInt(r.block_number as string),
});

export const OUTBOX_COLUMNS = "id, address, nonce, hash, raw, fn, status, block_number";

/**
 * The row of a request's send (scope, key, request hash, seq), whichever key signed it, within the
 * keys' lifetime (24 h: an expired key may be reused for a new request). `$1..$4` are those four.
 */
export const REQUEST_ROW_WHERE = "scope = $1 AND key = $2 AND request_hash = $3 AND seq = $4 AND created_at > now() - interval '24 hours'";
