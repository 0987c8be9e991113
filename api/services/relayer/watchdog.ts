// Stuck waiters: a dropped tx is rebroadcast (same bytes: same nonce, no double effect), a nonce gap
// gets a no-op, and waiters whose nonce was taken by another tx fail with TX_DROPPED (a retry then
// sends anew, safely). "Taken" must be seen twice, at least DROP_CONFIRM_MS apart: a node under
// strain can count a nonce as used before it serves that tx's receipt (once in 2,000 creates on a
// loaded anvil with 4 keys), and a wrong TX_DROPPED answers a mined write as failed.
import { keccak256, TransactionReceiptNotFoundError, type Account, type Hex, type PublicClient } from "viem";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import { errText } from "./common.ts";
import type { Fees } from "./fees.ts";
import { STUCK_MS, type Outcome, type Waiter } from "./receipt-watcher.ts";

/** A "nonce used, no receipt" seen first at time t counts as a drop only if it still holds at t + this. */
export const DROP_CONFIRM_MS = 1_000;

export function createWatchdog(deps: {
  account: Account;
  chainId: number;
  publicClient: PublicClient;
  outbox: OutboxRepository;
  logger: Logger;
  metrics: Metrics;
  currentFees: () => Promise<Fees>;
  rawSend: (raw: Hex) => Promise<unknown>;
  signTx: NonNullable<Account["signTransaction"]>;
  pending: () => Waiter[];
  settle: (hash: Hex, outcome: Outcome) => void;
}) {
  const { account, publicClient, outbox, logger } = deps;
  // When each waiter (by its first hash) was first seen with its nonce used and no receipt.
  const missingSince = new Map<Hex, number>();
  return async function watchdog(): Promise<void> {
    const [latest, pending] = await Promise.all([
      publicClient.getTransactionCount({ address: account.address, blockTag: "latest" }).then(BigInt),
      publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }).then(BigInt),
    ]);
    const waiting = deps.pending();
    const live = new Set(waiting.map((w) => w.hashes[0]!));
    for (const h of missingSince.keys()) if (!live.has(h)) missingSince.delete(h);
    for (const w of waiting) {
      if (w.nonce >= latest || Date.now() - w.since < STUCK_MS) continue;
      // Only a definite "no such receipt" counts: a failed lookup must never fail a mined tx (the
      // client's retry would then send a second one).
      // A replaced tx: any of its broadcasts may be the mined one.
      const receipts = await Promise.all(w.hashes.map((hash) => publicClient.getTransactionReceipt({ hash }).catch((err: unknown) =>
        err instanceof TransactionReceiptNotFoundError ? null : undefined,
      )));
      const receipt = receipts.find((r) => r) ?? (receipts.includes(undefined) ? undefined : null);
      if (receipt === undefined) continue;
      const id = w.hashes[0]!;
      if (receipt) {
        missingSince.delete(id);
        deps.settle(receipt.transactionHash, { receipt });
      } else {
        const first = missingSince.get(id);
        if (first === undefined || Date.now() - first < DROP_CONFIRM_MS) {
          if (first === undefined) missingSince.set(id, Date.now());
          continue;
        }
        missingSince.delete(id);
        // The nonce was used by another transaction: this one can never be mined.
        await outbox.markDroppedByHash(w.hash).catch(() => {});
        deps.metrics.relayerTxs.inc({ fn: "?", result: "dropped" });
        deps.settle(w.hash, { error: new AppError("TX_DROPPED", "The transaction was dropped and never mined; retrying is safe") });
      }
    }
    if (pending !== latest) return; // something executable is queued: the chain is moving
    const rows = await outbox.liveFrom(latest);
    if (!rows.length) return;
    if (rows[0]!.nonce === latest) {
      let expect = latest;
      for (const row of rows) {
        if (row.nonce !== expect) break;
        logger.warn("relayer rebroadcasting a dropped transaction", { hash: row.hash, nonce: row.nonce.toString() });
        await deps.rawSend(row.raw).catch((err) => logger.warn("rebroadcast failed", { err: errText(err) }));
        expect++;
      }
      return;
    }
    // A nonce below our lowest in-flight tx was allocated but never reached the chain: fill it.
    logger.warn("relayer filling a nonce gap", { nonce: latest.toString() });
    const f = await deps.currentFees();
    const raw = await deps.signTx({
      chainId: deps.chainId, type: "eip1559", to: account.address, value: 0n, gas: 21_000n, nonce: Number(latest),
      maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas,
    });
    await outbox.recordFiller(latest, keccak256(raw), raw);
    await deps.rawSend(raw).catch((err) => logger.warn("gap filler failed", { err: errText(err) }));
  };
}
