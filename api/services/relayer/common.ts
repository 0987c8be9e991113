// Small pieces shared by the relayer's parts: the sending account, the request scope a send is
// recorded under, and how a node's answer to a broadcast is read.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Abi, Account, Hex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { errorsAbi, missionEscrowAbi, testStablecoinAbi } from "../../../abis/index.ts";
import type { OutboxRow } from "../../repositories/outbox-rows.ts";

/** anvil's public development mnemonic (its keys hold no real value); used only on chain 31337. */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
/** Escrow functions plus every custom error, so viem can decode any revert. */
export const escrowCallAbi: Abi = [...missionEscrowAbi, ...errorsAbi, ...testStablecoinAbi];

const NONCE_TAKEN = /nonce too low|nonce has already been used|replacement transaction underpriced|nonce.*(lower|used)/i;
const ALREADY_KNOWN = /already known|known transaction|already imported|transaction already (exists|in pool)/i;
// A node that refuses a fee cap below the next block's base fee instead of queueing it (anvil, reth;
// geth keeps it in its pool, where it is a stuck transaction for the replacement to handle).
const FEE_TOO_LOW = /max fee per gas less than block base fee|fee cap less than block base fee|max ?fee ?per ?gas .*less than .*base ?fee/i;

/**
 * How a node's answer to eth_sendRawTransaction is read: our bytes are there, the nonce is used, the
 * fee cap is below the next block's base fee (nothing was accepted), or a real failure.
 */
export function sendErrorKind(message: string): "known" | "nonce-taken" | "fee-too-low" | "other" {
  if (ALREADY_KNOWN.test(message)) return "known";
  if (NONCE_TAKEN.test(message)) return "nonce-taken";
  if (FEE_TOO_LOW.test(message)) return "fee-too-low";
  return "other";
}

export function relayerAccount(privateKey: Hex | undefined, chainId: number): Account {
  if (privateKey) return privateKeyToAccount(privateKey);
  if (chainId === 31337) return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 });
  throw new Error("RELAYER_PRIVATE_KEY is required on a chain other than the local 31337");
}

/** The pool's accounts (RELAYER_PRIVATE_KEYS, key 0 first); none given: anvil's account 0 on 31337 only. */
export function relayerAccounts(keys: readonly Hex[], chainId: number): Account[] {
  return keys.length ? keys.map((k) => privateKeyToAccount(k)) : [relayerAccount(undefined, chainId)];
}

// The Idempotency-Key of the request being served (set by the idempotency middleware), so that each
// send is recorded under (scope, key, n-th send of this request) without threading it through services.
// `ahead`: the outbox lookup of the next send, started early (the pool's lookAhead) so that it runs
// beside the request's own checks instead of in a row after them.
type RequestScope = { scope: string; key: string; requestHash: string; seq: number; ahead?: { seq: number; found: Promise<unknown> } };
const requestScope = new AsyncLocalStorage<RequestScope>();
/** `first`: the outbox row of the request's first send, when the caller has already read it (null: none). */
export function withIdempotencyScope<T>(scope: string, key: string, requestHash: string, fn: () => Promise<T>, first?: OutboxRow | null): Promise<T> {
  const ahead = first === undefined ? undefined : { seq: 0, found: Promise.resolve(first) };
  return requestScope.run({ scope, key, requestHash, seq: 0, ahead }, fn);
}
/** The current request's reference for its next send (null outside a keyed request). */
export function nextRequestRef(): { scope: string; key: string; requestHash: string; seq: number } | null {
  const s = requestScope.getStore();
  return s ? { scope: s.scope, key: s.key, requestHash: s.requestHash, seq: s.seq++ } : null;
}
/**
 * Starts `find` for the reference the next send will have and returns it (null outside a keyed
 * request: the send has no recorded transaction to find).
 */
export function lookAheadRequestRef(find: (ref: { scope: string; key: string; requestHash: string; seq: number }) => Promise<unknown>): Promise<unknown> {
  const s = requestScope.getStore();
  if (!s) return Promise.resolve(null);
  if (s.ahead?.seq === s.seq) return s.ahead.found;
  const found = find({ scope: s.scope, key: s.key, requestHash: s.requestHash, seq: s.seq });
  found.catch(() => {}); // read (and thrown) by the send that takes it
  s.ahead = { seq: s.seq, found };
  return found;
}
/** The look-ahead started for `seq`, taken once (undefined when none was started). */
export function takeLookAhead(seq: number): Promise<unknown> | undefined {
  const s = requestScope.getStore();
  if (!s?.ahead || s.ahead.seq !== seq) return undefined;
  const { found } = s.ahead;
  s.ahead = undefined;
  return found;
}

// Work a request wants done as soon as its transaction is mined, while the read-your-writes wait for
// the indexer runs (the create binds its details row to the new mission id, so the read model's
// refresh after indexing already has them). Given the mined tx's events; a failure is logged, and the
// hook itself records whether it got done. `indexed`: work to run once the indexer has the block,
// beside the read model's catch-up (the create reads its response's view from the indexed rows,
// which that catch-up does not change).
type ReceiptHook = (events: readonly { eventName: string; args: unknown }[]) => Promise<void>;
type IndexedHook = () => Promise<void>;
const receiptHooks = new AsyncLocalStorage<{ mined: ReceiptHook; indexed?: IndexedHook }>();
export function whenMined<T>(hook: ReceiptHook, fn: () => Promise<T>, indexed?: IndexedHook): Promise<T> {
  return receiptHooks.run({ mined: hook, indexed }, fn);
}
/** The hook of the send being made (undefined outside whenMined). */
export const minedHook = (): ReceiptHook | undefined => receiptHooks.getStore()?.mined;
/** The send's work once indexed (undefined outside whenMined or when none was given). */
export const indexedHook = (): IndexedHook | undefined => receiptHooks.getStore()?.indexed;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const errText = (err: unknown) =>
  err instanceof Error ? `${err.message} ${(err as { details?: string }).details ?? ""}` : String(err);
