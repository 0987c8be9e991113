// Stuck transactions: a broadcast not mined within RELAYER_REPLACE_AFTER_BLOCKS blocks is re-signed
// with the same nonce and fields and higher fees, so exactly one of its broadcasts can be mined.
// Nodes accept a replacement only with both fees raised by 10 % or more (geth's default price bump;
// anvil and reth alike): +12.5 % clears it and matches the base fee's largest per-block rise.
// Only a broadcast that holds the line is replaced: the key's oldest unmined nonce, or a later one
// whose fee cap is below the current base fee (it could not be mined even once its turn comes). A
// later nonce waits for the one before it, and raising its fees buys nothing: bumping those without
// end is how fees once ran away to 264,000 gwei on an automining anvil. And never above a ceiling:
// RELAYER_MAX_FEE_GWEI when set, else twice the current estimate; never more than the key can pay
// (gas x fee cap within its balance). At the ceiling the last broadcast stays and waits.
import { keccak256, parseTransaction, type Account, type Hex, type PublicClient } from "viem";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import type { Fees } from "./fees.ts";
import type { Waiter } from "./receipt-watcher.ts";

/** +12.5 %, rounded up, so a bump of a small fee still clears the node's minimum. */
export const bumped = (fee: bigint) => fee + (fee + 7n) / 8n;

/** Without RELAYER_MAX_FEE_GWEI a replacement asks at most this many times the current estimate. */
export const CEILING_X_ESTIMATE = 2n;

/**
 * The replacement's fees, or null when the ceiling leaves no room for a full bump. The ceiling is
 * the cap when one is set, else CEILING_X_ESTIMATE x the estimate; `affordableWei` (the key's
 * balance / the tx's gas) bounds it in every case.
 */
export function replacementFees(prev: Fees, estimate: Fees, capWei: bigint | null, affordableWei: bigint | null = null): Fees | null {
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const min = (a: bigint, b: bigint) => (a < b ? a : b);
  let maxFeePerGas = max(bumped(prev.maxFeePerGas), estimate.maxFeePerGas);
  const maxPriorityFeePerGas = max(bumped(prev.maxPriorityFeePerGas), estimate.maxPriorityFeePerGas);
  let ceiling = capWei ?? estimate.maxFeePerGas * CEILING_X_ESTIMATE;
  if (affordableWei !== null) ceiling = min(ceiling, affordableWei);
  maxFeePerGas = min(maxFeePerGas, ceiling);
  if (maxFeePerGas < bumped(prev.maxFeePerGas) || maxPriorityFeePerGas > maxFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Whether a broadcast unmined for the set number of blocks is worth replacing (see the top). */
export function holdsTheLine(nonce: bigint, minedCount: bigint, maxFeePerGas: bigint, baseFee: bigint): boolean {
  return nonce === minedCount || maxFeePerGas < baseFee;
}

export function createReplacer(deps: {
  account: Account;
  publicClient: PublicClient;
  outbox: OutboxRepository;
  logger: Logger;
  metrics: Pick<Metrics, "relayerReplacements">;
  capWei: bigint | null;
  signTx: NonNullable<Account["signTransaction"]>;
  rawSend: (raw: Hex) => Promise<unknown>;
}) {
  const { publicClient, outbox, logger } = deps;
  /** `chain`: the key's mined-transaction count and the head's base fee, read once per round. */
  return async function replace(w: Waiter, chain: { minedCount: bigint; baseFee: bigint }): Promise<Hex[] | null> {
    const row = await outbox.findSignedByHash(w.hash);
    if (!row) return null; // mined meanwhile, or another API copy replaced it: its hashes are looked up below
    const tx = parseTransaction(row.raw);
    if (tx.type !== "eip1559" || tx.maxFeePerGas === undefined || tx.maxPriorityFeePerGas === undefined) return null;
    if (row.nonce < chain.minedCount) return null; // mined: the block watcher settles it
    if (!holdsTheLine(row.nonce, chain.minedCount, tx.maxFeePerGas, chain.baseFee)) return null;
    const prev = { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
    const [est, balance] = await Promise.all([publicClient.estimateFeesPerGas(), publicClient.getBalance({ address: deps.account.address })]);
    const value = tx.value ?? 0n;
    const affordable = balance > value ? (balance - value) / tx.gas! : 0n;
    const fees = replacementFees(prev, est, deps.capWei, affordable);
    if (!fees) {
      logger.warn("relayer tx stuck at its fee ceiling; waiting", {
        hash: w.hash, nonce: row.nonce.toString(), maxFeePerGas: prev.maxFeePerGas.toString(),
        ceiling: deps.capWei === null ? "2x estimate" : "RELAYER_MAX_FEE_GWEI", affordableWei: affordable.toString(),
      });
      return null;
    }
    const raw = await deps.signTx({
      chainId: tx.chainId!, type: "eip1559", to: tx.to!, data: tx.data, value: tx.value ?? 0n, gas: tx.gas!, nonce: Number(row.nonce),
      accessList: tx.accessList, ...fees,
    });
    const hash = keccak256(raw);
    // Recorded before it is sent: after a crash, every recorded hash of the row is looked for.
    if (!(await outbox.recordReplacement(row.id, { hash: row.hash, raw: row.raw, ...prev }, { hash, raw, ...fees }))) {
      return outbox.broadcastHashes(row.id);
    }
    deps.metrics.relayerReplacements.inc();
    logger.warn("relayer replacing a stuck transaction", {
      nonce: row.nonce.toString(), from: row.hash, to: hash,
      maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
    });
    // "nonce too low" here: an earlier broadcast was mined; the watcher finds it under its hash.
    await deps.rawSend(raw).catch((err: unknown) => logger.warn("replacement broadcast failed", { hash, err: String(err) }));
    return [hash, ...w.hashes];
  };
}
