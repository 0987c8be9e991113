// One relayer key: fees, the nonce allocator (outbox rows by address), the sender (simulate, sign,
// record, broadcast), the receipt watcher and its watchdog, replacement and the balance monitor. The
// pool (pool.ts) builds one per key and decides which key sends what; after mining, the indexer
// service's read-your-writes wait.
//
// Crash safety: the tx is recorded before it is broadcast, keyed by the request's Idempotency-Key
// (scope, key, n-th send). A retry after a crash finds that row and rebroadcasts / waits for it
// instead of signing a second transaction (on the key that signed it: the pool routes it there).
import { parseEventLogs, type Abi, type Account, type Address, type PublicClient, type TransactionReceipt } from "viem";
import { AppError } from "../../lib/errors.ts";
import { mark } from "../../lib/stage-trace.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { ChainEvent, SentTx } from "../../lib/ports.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import type { OutboxRow, RequestRef } from "../../repositories/outbox-rows.ts";
import { decodedRevert, isChainUnreachable, mapRevert } from "../chain-errors.ts";
import type { IndexerService } from "../indexer.service.ts";
import { errText, indexedHook, minedHook } from "./common.ts";
import { createBalanceMonitor, type BalanceMonitor } from "./balance.ts";
import { createFeeSource, type FeePolicy } from "./fees.ts";
import { createNonceAllocator } from "./nonce-allocator.ts";
import { createReceiptWatcher } from "./receipt-watcher.ts";
import { createReplacer } from "./replace.ts";
import { createSender, type Call } from "./send.ts";
import { createWatchdog } from "./watchdog.ts";

/** A node's refusal of a tx the key cannot pay for (geth, anvil, reth, erigon wordings). */
const INSUFFICIENT_FUNDS = /insufficient funds/i;

export interface KeyDeps {
  account: Account;
  chainId: number;
  rpcUrl: string;
  publicClient: PublicClient;
  /** This key's rows of api.relayer_outbox (built by the composition root; purged by the housekeeping sweep). */
  outbox: OutboxRepository;
  indexer: Pick<IndexerService, "waitForBlock"> & Partial<Pick<IndexerService, "waitCaughtUp">>;
  logger: Logger;
  metrics: Metrics;
  /** Fee cap and bounded wait (RELAYER_MAX_FEE_GWEI, RELAYER_FEE_WAIT_MS); default: no cap. */
  fees?: FeePolicy;
  /** RELAYER_MIN_BALANCE_WEI and RELAYER_BALANCE_EVERY_MS; default: 0 (never low), checked only on demand. */
  balance?: { minWei: bigint; everyMs: number };
  /** RELAYER_REPLACE_AFTER_BLOCKS: blocks a broadcast may wait unmined before a fee bump (0: never; default 3). */
  replaceAfterBlocks?: number;
  /** Test hook (env RELAYER_CRASH_AFTER_BROADCAST): SIGKILL this process right after a broadcast. */
  crashAfterBroadcast?: boolean;
  /**
   * Runs once the indexer has the receipt's block, before send() resolves: read models derived from
   * the indexed rows catch up with the write so its response (and the next read) sees it.
   */
  onIndexed?: (block: bigint) => Promise<void>;
}

/** One key of the pool: sends a prepared call as a request's `ref` (null outside a keyed request). */
export interface KeyRelayer {
  readonly address: Address;
  /**
   * Sends `call` (`fn`: the function the API asked for, for errors, metrics and the outbox); resumes
   * `recorded` (this ref's live outbox row, signed by this key) instead when given.
   */
  send(call: Call, eventsAbi: Abi, fn: string, ref: RequestRef | null, recorded: OutboxRow | null, gasAhead?: Promise<bigint>): Promise<SentTx>;
  /**
   * Starts the estimate of `call` from this key ahead of its send (handed back to `send` as
   * `gasAhead`), and the fee read the send will need when none is cached. Never rejects unhandled.
   */
  estimateAhead(call: Call): Promise<bigint>;
  /** The outbox row of `ref`, whichever key signed it. */
  findForRequest(ref: RequestRef): Promise<OutboxRow | null>;
  readonly balance: BalanceMonitor;
  /** Sends of this key not yet answered. */
  inFlight(): number;
}

/** The longest a broadcast waits for the indexer to finish a block this key wrote (see `hold`). */
const HOLD_MS = 200;

export function createKeyRelayer(deps: KeyDeps): KeyRelayer {
  const { account, publicClient, logger, metrics, chainId, outbox } = deps;
  if (!account.signTransaction) throw new Error("the relayer account cannot sign transactions locally");
  const signTx = account.signTransaction.bind(account);

  const balance = createBalanceMonitor({
    publicClient, address: account.address, metrics, logger,
    minWei: deps.balance?.minWei ?? 0n, everyMs: deps.balance?.everyMs ?? 0,
  });
  const unfunded = () =>
    new AppError("RELAYER_UNFUNDED", `The service's relayer key ${account.address} has no ETH left for gas; try again once it is refunded`, undefined, { "Retry-After": "60" });
  const currentFees = createFeeSource(publicClient, deps.fees ?? { capWei: null, waitMs: 0 }, metrics);
  const allocator = createNonceAllocator(outbox);
  // A send with no other of this key in flight may take the one-statement allocation (outbox.repository.ts).
  const allocate: typeof allocator = (item, hint, reconcile) => allocator(item, hint, reconcile, inFlight <= 1);
  // The highest block a tx of this key was mined in, and the highest the indexer was seen to reach.
  let lastMined = 0n;
  let indexedSeen = 0n;
  const sender = createSender({
    account, chainId, publicClient, outbox, logger, currentFees, allocate, signTx, crashAfterBroadcast: deps.crashAfterBroadcast,
    onReceipt: (r) => watcher.known(r), rpcUrl: deps.rpcUrl,
    // While the indexer is still on a block this key wrote, new broadcasts wait for it (bounded) and
    // then go out together: on an automining node every broadcast is a block of its own, and the
    // indexer's per-block work, which every write waits for, is shared by as many writes as can join
    // one block. An idle indexer (a single write, timed blocks) holds nothing.
    hold: () => (lastMined > indexedSeen ? deps.indexer.waitForBlock(lastMined, HOLD_MS).then(() => {}) : undefined),
  });
  const replace = createReplacer({ account, publicClient, outbox, logger, metrics, capWei: deps.fees?.capWei ?? null, signTx, rawSend: sender.rawSend });
  const watcher = createReceiptWatcher({
    publicClient, address: account.address, outbox, logger,
    watchdog: () => watchdog(), replaceAfterBlocks: deps.replaceAfterBlocks ?? 3, replace,
  });
  const watchdog = createWatchdog({
    account, chainId, publicClient, outbox, logger, metrics, currentFees, signTx,
    rawSend: sender.rawSend, pending: watcher.pending, settle: watcher.settle,
  });

  const toAppError = (fn: string, err: unknown): AppError => {
    if (err instanceof AppError) return err;
    const revert = decodedRevert(err);
    if (revert) {
      const mapped = mapRevert(fn, revert);
      // A refusal no user input explains (a key without RELAYER_ROLE, a call off the allowlist): say which.
      if (mapped.code === "INTERNAL_ERROR") logger.error("relayer call refused on-chain", { fn, key: account.address, error: revert.name, args: revert.args.map(String) });
      return mapped;
    }
    if (isChainUnreachable(err)) return new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
    if (INSUFFICIENT_FUNDS.test(errText(err))) {
      void balance.refresh();
      return unfunded();
    }
    logger.error("relayer failure", { fn, err: errText(err) });
    return new AppError("INTERNAL_ERROR", "Internal server error");
  };

  let inFlight = 0;
  /** Sends `call`; resolves after mining and indexing (bounded). */
  async function send(call: Call, eventsAbi: Abi, fn: string, ref: RequestRef | null, recorded: OutboxRow | null, gasAhead?: Promise<bigint>): Promise<SentTx> {
    inFlight++;
    try {
      return await sendOnce(call, eventsAbi, fn, ref, recorded, gasAhead);
    } finally {
      inFlight--;
    }
  }
  async function sendOnce(call: Call, eventsAbi: Abi, fn: string, ref: RequestRef | null, recorded: OutboxRow | null, gasAhead?: Promise<bigint>): Promise<SentTx> {
    let row: OutboxRow;
    let hashes: `0x${string}`[];
    try {
      if (recorded && recorded.status !== "failed" && recorded.status !== "dropped") {
        logger.info("relayer resuming a recorded transaction", { fn, hash: recorded.hash, status: recorded.status });
        row = await sender.resume(recorded);
        hashes = await outbox.broadcastHashes(row.id); // after a crash mid-replacement: whichever is mined
      } else {
        if (balance.current().empty && (await balance.refresh()).empty) throw unfunded();
        row = await sender.sendNew(call, fn, ref, recorded?.id, gasAhead);
        hashes = [row.hash];
      }
    } catch (err) {
      metrics.relayerTxs.inc({ fn, result: "rejected" });
      throw toAppError(fn, err);
    }
    let receipt: TransactionReceipt;
    try {
      receipt = await watcher.waitReceipt(hashes, row.nonce);
    } catch (err) {
      metrics.relayerTxs.inc({ fn, result: "unconfirmed" });
      throw toAppError(fn, err);
    }
    if (receipt.status !== "success") {
      metrics.relayerTxs.inc({ fn, result: "reverted" });
      // Replay the call on the state it met to learn why (a race another tx won, typically).
      try {
        await publicClient.simulateContract({ account, ...call, blockNumber: receipt.blockNumber });
      } catch (err) {
        const mapped = toAppError(fn, err);
        if (mapped.code !== "INTERNAL_ERROR") throw mapped;
      }
      throw new AppError("TX_REVERTED", "The transaction reverted on-chain (another transaction changed the state first); reload and try again");
    }
    mark("receipt");
    metrics.relayerTxs.inc({ fn, result: "mined" });
    const events = parseEventLogs({ abi: eventsAbi, logs: receipt.logs }) as ChainEvent[];
    // The request's own work on the receipt (whenMined) runs while the indexer catches up; it knows
    // whether it got done (a failure here never fails the mined send).
    const hook = minedHook()?.(events).catch((err: unknown) => logger.warn("whenMined hook failed", { fn, err: errText(err) }));
    if (receipt.blockNumber > lastMined) lastMined = receipt.blockNumber;
    // The request's own work once indexed (it only reads indexed rows) runs beside the read model's
    // catch-up: with the catch-up folded into the wait, beside each folded read (the last one started
    // is the one beside the read that found the block); otherwise after the wait, beside onIndexed.
    const work = indexedHook();
    const runWork = work ? () => work().catch((err: unknown) => logger.warn("whenMined indexed hook failed", { fn, err: errText(err) })) : undefined;
    let probe: Promise<void> | undefined;
    const folded = deps.onIndexed && deps.indexer.waitCaughtUp;
    // Folded: the catch-up may run at the first NOTIFY, so the receipt's own work (the create binds its
    // details row, which the catch-up projects) is done first; it is far shorter than the indexing.
    const waited = folded
      ? Promise.resolve(hook).then(() => folded(receipt.blockNumber, runWork && (() => void (probe = runWork()))))
      : deps.indexer.waitForBlock(receipt.blockNumber).then((indexed) => ({ indexed, caughtUp: false }));
    const [{ indexed, caughtUp }] = await Promise.all([waited, hook]);
    mark("indexed");
    if (indexed && receipt.blockNumber > indexedSeen) indexedSeen = receipt.blockNumber;
    const after = !indexed ? undefined : caughtUp && probe ? probe : runWork?.();
    if (!indexed) logger.warn("indexer did not reach the block in time", { fn, block: receipt.blockNumber });
    else if (deps.onIndexed && !caughtUp) {
      // Best effort: the journal reactor applies the same block shortly after if this fails.
      await deps.onIndexed(receipt.blockNumber).catch((err) =>
        logger.warn("read model catch-up after a write failed", { fn, block: receipt.blockNumber, err: err instanceof Error ? err.message : String(err) }));
    }
    mark("caught-up");
    await after;
    mark("view");
    // The broadcast that was mined (a replacement's hash when the first one was stuck).
    return { hash: receipt.transactionHash, receipt, events, indexed };
  }

  return {
    address: account.address,
    send,
    estimateAhead(call) {
      currentFees.warm();
      const gas = sender.estimate(call);
      gas.catch(() => {}); // read (or made again) by the send that takes it
      return gas;
    },
    findForRequest: (ref) => outbox.findForRequest(ref),
    balance,
    inFlight: () => inFlight,
  };
}
