// Stable identifiers shared by the indexer and the API (docs/decisions.md "onChainId / id").
// Pure: no Ponder imports, so the API and unit tests can use them too.
import { type Address, encodeAbiParameters, keccak256 } from "viem";

declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/**
 * `*Id` is the UUID the API shows (derived from chain data below, so it is the same in the indexer
 * and the API); `*OnChainId` is the contract's own uint256 counter. Branded so one kind of UUID is
 * not passed where another is expected; a plain string from the database is cast once, at the edge.
 */
export type MissionId = Brand<string, "MissionId">;
export type DisputeId = Brand<string, "DisputeId">;
export type GuildId = Brand<string, "GuildId">;
export type OnChainId = bigint;

/** Formats the first 16 bytes of a hash as an RFC 4122 UUID with version nibble 8 and variant 10. */
export function uuidFromHash(hash: `0x${string}`): string {
  const b = hash.slice(2, 34).split("");
  b[12] = "8"; // version nibble (byte 6, high half)
  b[16] = ((parseInt(b[16]!, 16) & 0x3) | 0x8).toString(16); // variant bits 10 (byte 8, top two bits)
  const h = b.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Mission id: keccak256(abi.encode(uint256 chainId, address escrow, uint256 onChainId)). */
export function missionUuid(chainId: number | bigint, escrow: Address, onChainId: OnChainId): MissionId {
  // Memoised per (chain, escrow) then by the on-chain id (a Map compares bigints by value): every
  // lifecycle event of a mission needs its id, and the keccak is the costliest step of a backfill's
  // handlers. Bounded: a map is dropped when it grows past MEMO_LIMIT.
  const scope = `${chainId}:${escrow}`;
  let memo = missionMemo.get(scope);
  if (memo === undefined) {
    if (missionMemo.size >= MEMO_SCOPES) missionMemo.clear();
    missionMemo.set(scope, (memo = new Map()));
  }
  const hit = memo.get(onChainId);
  if (hit !== undefined) return hit;
  const id = uuidFromHash(keccak256(missionIdPreimage(BigInt(chainId), escrow, onChainId))) as MissionId;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(onChainId, id);
  return id;
}
const MEMO_LIMIT = 200_000;
const MEMO_SCOPES = 64;
const missionMemo = new Map<string, Map<bigint, MissionId>>();

const UINT256_MAX = 2n ** 256n - 1n;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const word = (n: bigint): string => {
  if (n < 0n || n > UINT256_MAX) throw new Error(`not a uint256: ${n}`);
  return n.toString(16).padStart(64, "0");
};

/**
 * abi.encode(uint256, address, uint256) as hex, written out (three 32-byte words) instead of through
 * viem's general ABI encoder, which costs more than the keccak here; the same bytes (unit-tested
 * against `encodeAbiParameters`), the same refusal of a malformed address or an out-of-range number.
 */
export function missionIdPreimage(chainId: bigint, escrow: Address, onChainId: bigint): `0x${string}` {
  if (!ADDRESS.test(escrow)) throw new Error(`not an address: ${escrow}`);
  return `0x${word(chainId)}${"0".repeat(24)}${escrow.slice(2).toLowerCase()}${word(onChainId)}`;
}

/** Id of another on-chain object: keccak256(abi.encode(string kind, uint256 chainId, address contract, uint256 onChainId)). */
export function entityUuid(
  kind: "dispute" | "guild",
  chainId: number | bigint,
  contract: Address,
  onChainId: bigint,
): string {
  return uuidFromHash(
    keccak256(
      encodeAbiParameters(
        [{ type: "string" }, { type: "uint256" }, { type: "address" }, { type: "uint256" }],
        [kind, BigInt(chainId), contract, onChainId],
      ),
    ),
  );
}

export const disputeUuid = (chainId: number | bigint, escrow: Address, disputeId: OnChainId) =>
  entityUuid("dispute", chainId, escrow, disputeId) as DisputeId;
export const guildUuid = (chainId: number | bigint, registry: Address, guildId: OnChainId | number) =>
  entityUuid("guild", chainId, registry, BigInt(guildId)) as GuildId;

/** Row ids of per-pair tables. Addresses are lowercased so ids never depend on checksum casing. */
export const memberId = (guildId: number, account: Address) => `${guildId}:${account.toLowerCase()}`;
export const boardEntryId = (guildId: number, missionOnChainId: bigint) => `${guildId}:${missionOnChainId}`;
export const operatorApprovalId = (user: Address, operator: Address) =>
  `${user.toLowerCase()}:${operator.toLowerCase()}`;

/**
 * The rating schema's `missionId` (bytes32) is the mission's on-chain id as a uint256
 * (`bytes32(uint256(onChainId))`), so a rating resolves to exactly one mission of the escrow.
 */
export const ratingMissionOnChainId = (missionId: `0x${string}`): bigint => BigInt(missionId);
