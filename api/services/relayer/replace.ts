// Stuck transactions: a broadcast not mined within RELAYER_REPLACE_AFTER_BLOCKS blocks is re-signed
// with the same nonce and fields and higher fees, so exactly one of its broadcasts can be mined.
// Nodes accept a replacement only with both fees raised by 10 % or more (geth's default price bump;
// anvil and reth alike): +12.5 % clears it and matches the base fee's largest per-block rise. Never
// above the fee cap: at the cap the last broadcast stays and waits.
import { keccak256, parseTransaction, type Account, type Hex, type PublicClient } from "viem";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import type { Fees } from "./fees.ts";
import type { Waiter } from "./receipt-watcher.ts";

/** +12.5 %, rounded up, so a bump of a small fee still clears the node's minimum. */
export const bumped = (fee: bigint) => fee + (fee + 7n) / 8n;

/** The replacement's fees, or null when the cap leaves no room for a full bump. */
export function replacementFees(prev: Fees, estimate: Fees, capWei: bigint | null): Fees | null {
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  let maxFeePerGas = max(bumped(prev.maxFeePerGas), estimate.maxFeePerGas);
  const maxPriorityFeePerGas = max(bumped(prev.maxPriorityFeePerGas), estimate.maxPriorityFeePerGas);
  if (capWei !== null && maxFeePerGas > capWei) maxFeePerGas = capWei;
  if (maxFeePerGas < bumped(prev.maxFeePerGas) || maxPriorityFeePerGas > maxFeePerGas) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
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
  return async function replace(w: Waiter): Promise<Hex[] | null> {
    const row = await outbox.findSignedByHash(w.hash);
    if (!row) return null; // mined meanwhile, or another API copy replaced it: its hashes are looked up below
    const tx = parseTransaction(row.raw);
    if (tx.type !== "eip1559" || tx.maxFeePerGas === undefined || tx.maxPriorityFeePerGas === undefined) return null;
    const prev = { maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas };
    const est = await publicClient.estimateFeesPerGas();
    const fees = replacementFees(prev, est, deps.capWei);
    if (!fees) {
      logger.warn("relayer tx stuck at the fee cap; waiting", { hash: w.hash, nonce: row.nonce.toString(), maxFeePerGas: prev.maxFeePerGas.toString() });
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
