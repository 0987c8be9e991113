// The ONE module that sends transactions (docs/decisions.md "relayer").
//
// Per send: (1) outside any lock, estimate gas: that is also the simulation, so a revert is decoded
// (custom error -> API code) before any gas is spent. (2) In one short Postgres transaction (the row lock on api.relayer_nonces is what
// orders API copies sharing the key): take the next nonce, sign locally, record the signed tx in
// api.relayer_outbox. (3) Broadcast the raw bytes. (4) Wait for the receipt through one shared block
// watcher (eth_getBlockReceipts per new block, not one poller per request), then for the indexer to
// reach the block (read-your-writes, one shared poller too). The chain's pending nonce is read only
// on the first send of a process and after "nonce too low" (another sender used the key): re-sync.
//
// Crash safety: the tx is recorded before it is broadcast, keyed by the request's Idempotency-Key
// (scope, key, n-th send). A retry after a crash finds that row and rebroadcasts / waits for it
// instead of signing a second transaction. A watchdog rebroadcasts dropped txs (same bytes: same
// nonce, no double effect), fills nonce gaps with a no-op, and fails waiters whose nonce was taken
// by another tx (TX_DROPPED: a retry then sends anew, safely).
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import {
  encodeFunctionData,
  formatTransactionReceipt,
  keccak256,
  numberToHex,
  parseEventLogs,
  TransactionReceiptNotFoundError,
  type Abi,
  type Account,
  type Address,
  type Hex,
  type PublicClient,
  type RpcTransactionReceipt,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { errorsAbi, missionEscrowAbi, testStablecoinAbi } from "../../abis/index.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import {
  BatchConflict,
  outboxRepository,
  type AllocateItem,
  type OutboxRow,
  type RequestRef,
} from "../repositories/outbox.repository.ts";
import { decodedRevert, isChainUnreachable, mapRevert } from "./chain-errors.ts";
import type { IndexerService } from "./indexer.service.ts";

/** anvil's public development mnemonic (its keys hold no real value); used only on chain 31337. */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
/** Escrow functions plus every custom error, so viem can decode any revert. */
export const escrowCallAbi = [...missionEscrowAbi, ...errorsAbi, ...testStablecoinAbi] as unknown as Abi;

const RECEIPT_TIMEOUT_MS = 60_000;
const BLOCK_POLL_MS = 15;
/** How long the direct receipt look after a broadcast gets before the block watcher takes over. */
const DIRECT_LOOK_MS = 40;
const INDEXER_POLL_MS = 10;
/** A waiter older than this makes the watchdog look for a dropped tx or a nonce gap. */
const STUCK_MS = 1_500;
const WATCHDOG_EVERY_MS = 1_000;
const NONCE_TAKEN = /nonce too low|nonce has already been used|replacement transaction underpriced|nonce.*(lower|used)/i;
const ALREADY_KNOWN = /already known|known transaction|already imported|transaction already (exists|in pool)/i;

/** How a node's answer to eth_sendRawTransaction is read: our bytes are there, or the nonce is used, or a real failure. */
export function sendErrorKind(message: string): "known" | "nonce-taken" | "other" {
  if (ALREADY_KNOWN.test(message)) return "known";
  if (NONCE_TAKEN.test(message)) return "nonce-taken";
  return "other";
}

export function relayerAccount(privateKey: Hex | undefined, chainId: number): Account {
  if (privateKey) return privateKeyToAccount(privateKey);
  if (chainId === 31337) return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 });
  throw new Error("RELAYER_PRIVATE_KEY is required on a chain other than the local 31337");
}

// The Idempotency-Key of the request being served (set by the idempotency middleware), so that each
// send is recorded under (scope, key, n-th send of this request) without threading it through services.
const requestScope = new AsyncLocalStorage<{ scope: string; key: string; requestHash: string; seq: number }>();
export function withIdempotencyScope<T>(scope: string, key: string, requestHash: string, fn: () => Promise<T>): Promise<T> {
  return requestScope.run({ scope, key, requestHash, seq: 0 }, fn);
}

export interface ChainEvent {
  eventName: string;
  args: Record<string, unknown>;
}

/** A contract other than the escrow (EAS, AchievementNFT, ReputationRegistry): its ABI must include its errors. */
export interface TxTarget {
  address: Address;
  abi: Abi;
}

export interface SentTx {
  hash: Hex;
  receipt: TransactionReceipt;
  events: ChainEvent[];
  indexed: boolean;
}

interface Waiter {
  hash: Hex;
  nonce: bigint;
  since: number;
  resolve(r: TransactionReceipt): void;
  reject(e: unknown): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const errText = (err: unknown) => (err instanceof Error ? `${err.message} ${(err as { details?: string }).details ?? ""}` : String(err));

export function createRelayer(deps: {
  account: Account;
  chainId: number;
  rpcUrl: string;
  escrow: Address;
  publicClient: PublicClient;
  database: Database;
  indexer: IndexerService;
  logger: Logger;
  metrics: Metrics;
  /** Bounded wait for the indexer after mining (env INDEXER_WAIT_MS). */
  indexerWaitMs?: number;
  /** Test hook (env RELAYER_CRASH_AFTER_BROADCAST): SIGKILL this process right after a broadcast. */
  crashAfterBroadcast?: boolean;
}) {
  const { account, publicClient, escrow, logger, metrics, chainId } = deps;
  if (!account.signTransaction) throw new Error("the relayer account cannot sign transactions locally");
  const signTx = account.signTransaction.bind(account);
  // A tiny pool of its own for the allocation transaction (see outboxRepository); idle connections
  // close after a second, so it needs no explicit shutdown.
  const poolOptions = (deps.database.pool as unknown as { options: pg.PoolConfig }).options;
  const allocPool = new pg.Pool({ ...poolOptions, max: 2, idleTimeoutMillis: 1_000, allowExitOnIdle: true });
  allocPool.on("error", () => {});
  const outbox = outboxRepository(deps.database.pool, chainId, account.address, allocPool);
  const indexerWaitMs = deps.indexerWaitMs ?? 5_000;
  let reconciled = false;
  setInterval(() => void outbox.purge().catch(() => {}), 60 * 60 * 1000).unref();

  const toAppError = (fn: string, err: unknown): AppError => {
    if (err instanceof AppError) return err;
    const revert = decodedRevert(err);
    if (revert) return mapRevert(fn, revert);
    if (isChainUnreachable(err)) return new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
    logger.error("relayer failure", { fn, err: errText(err) });
    return new AppError("INTERNAL_ERROR", "Internal server error");
  };

  // --- fees: one read every 2 s is plenty (base fee moves 12.5 % per block at most) -----------------
  let fees: { at: number; value: Promise<{ maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }> } | null = null;
  function currentFees() {
    if (fees && Date.now() - fees.at < 2_000) return fees.value;
    const value = (async () => {
      const [block, tip] = await Promise.all([
        publicClient.getBlock({ blockTag: "latest" }),
        publicClient.request({ method: "eth_maxPriorityFeePerGas" } as never).then((v) => BigInt(v as Hex)).catch(() => 1_000_000_000n),
      ]);
      const base = block.baseFeePerGas ?? (await publicClient.getGasPrice());
      return { maxFeePerGas: base * 2n + tip, maxPriorityFeePerGas: tip };
    })();
    fees = { at: Date.now(), value };
    value.catch(() => (fees = null));
    return value;
  }

  // --- the shared block watcher -------------------------------------------------------------------
  const waiters = new Map<Hex, Waiter[]>();
  let watching = false;
  let lastScanned: bigint | null = null;
  let lastWatchdog = 0;

  // Outcomes are written to the outbox in batches (one UPDATE per flush), off the request path.
  let marks: { hash: Hex; success: boolean; block: bigint }[] = [];
  let flushing: NodeJS.Timeout | null = null;
  function markMined(receipt: TransactionReceipt) {
    marks.push({ hash: receipt.transactionHash, success: receipt.status === "success", block: receipt.blockNumber });
    flushing ??= setTimeout(() => {
      const batch = marks;
      marks = [];
      flushing = null;
      outbox.markMined(batch).catch((err) => logger.warn("outbox markMined failed", { err: errText(err) }));
    }, 10);
  }

  function settle(hash: Hex, outcome: { receipt: TransactionReceipt } | { error: unknown }) {
    const list = waiters.get(hash);
    if (!list) return;
    waiters.delete(hash);
    if ("receipt" in outcome) markMined(outcome.receipt);
    for (const w of list) "receipt" in outcome ? w.resolve(outcome.receipt) : w.reject(outcome.error);
  }

  function waitReceipt(hash: Hex, nonce: bigint): Promise<TransactionReceipt> {
    const p = new Promise<TransactionReceipt>((resolve, reject) => {
      const list = waiters.get(hash) ?? [];
      list.push({ hash, nonce, since: Date.now(), resolve, reject });
      waiters.set(hash, list);
    });
    // Automine (anvil) mines during eth_sendRawTransaction: one direct look usually settles it.
    publicClient.getTransactionReceipt({ hash }).then((r) => settle(hash, { receipt: r }), () => {});
    if (!watching) void watch();
    return p;
  }

  async function scanBlock(n: bigint) {
    const raw = (await publicClient.request({ method: "eth_getBlockReceipts", params: [numberToHex(n)] } as never)) as RpcTransactionReceipt[] | null;
    for (const r of raw ?? []) {
      if (r.from?.toLowerCase() !== account.address.toLowerCase()) continue;
      const receipt = formatTransactionReceipt(r);
      if (waiters.has(receipt.transactionHash)) settle(receipt.transactionHash, { receipt });
      else markMined(receipt); // another copy's or a crashed request's tx: bookkeeping only
    }
  }

  async function watch() {
    watching = true;
    try {
      while (waiters.size) {
        try {
          // Waiters whose direct look (just after broadcast) is still in flight need no scan yet: on an
          // automining node that look settles nearly all of them, and scanning would double the reads.
          const now0 = Date.now();
          const old = [...waiters.values()].flat().filter((w) => now0 - w.since > DIRECT_LOOK_MS);
          if (!old.length) {
            lastScanned = null;
            await sleep(BLOCK_POLL_MS);
            continue;
          }
          const head = await publicClient.getBlockNumber({ cacheTime: 0 });
          if (lastScanned === null) {
            // (Re)starting: look the old waiters up once, then follow new blocks.
            await Promise.all(old.map((w) => publicClient.getTransactionReceipt({ hash: w.hash }).then((r) => settle(w.hash, { receipt: r }), () => {})));
            lastScanned = head;
          }
          let from = lastScanned + 1n;
          if (head - from > 64n) from = head - 64n;
          const blocks: bigint[] = [];
          for (let b = from; b <= head; b++) blocks.push(b);
          await Promise.all(blocks.map(scanBlock));
          lastScanned = head;
          if (Date.now() - lastWatchdog > WATCHDOG_EVERY_MS) {
            const oldest = Math.min(...[...waiters.values()].flat().map((w) => w.since));
            if (Date.now() - oldest > STUCK_MS) {
              lastWatchdog = Date.now();
              await watchdog();
            }
          }
        } catch (err) {
          logger.warn("relayer block watcher", { err: errText(err) });
        }
        const now = Date.now();
        for (const list of [...waiters.values()]) {
          for (const w of list) {
            if (now - w.since > RECEIPT_TIMEOUT_MS) {
              settle(w.hash, { error: new AppError("CHAIN_UNAVAILABLE", "The transaction was not confirmed in time; retry with the same Idempotency-Key") });
            }
          }
        }
        await sleep(BLOCK_POLL_MS);
      }
    } finally {
      watching = false;
      lastScanned = null;
    }
  }

  async function rawSend(raw: Hex): Promise<"sent" | "known" | "nonce-taken"> {
    try {
      await publicClient.request({ method: "eth_sendRawTransaction", params: [raw] } as never);
      return "sent";
    } catch (err) {
      const kind = sendErrorKind(errText(err));
      if (kind === "other") throw err;
      return kind;
    }
  }

  /** Stuck waiters: a dropped tx is rebroadcast (same bytes), a nonce gap gets a no-op, a nonce taken by another tx fails its waiters. */
  async function watchdog() {
    const [latest, pending] = await Promise.all([
      publicClient.getTransactionCount({ address: account.address, blockTag: "latest" }).then(BigInt),
      publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }).then(BigInt),
    ]);
    for (const list of [...waiters.values()]) {
      const w = list[0]!;
      if (w.nonce >= latest || Date.now() - w.since < STUCK_MS) continue;
      // Only a definite "no such receipt" counts: a failed lookup must never fail a mined tx (the
      // client's retry would then send a second one).
      const receipt = await publicClient.getTransactionReceipt({ hash: w.hash }).catch((err: unknown) =>
        err instanceof TransactionReceiptNotFoundError ? null : undefined,
      );
      if (receipt === undefined) continue;
      if (receipt) {
        settle(w.hash, { receipt });
      } else {
        // The nonce was used by another transaction: this one can never be mined.
        await outbox.markDroppedByHash(w.hash).catch(() => {});
        metrics.relayerTxs.inc({ fn: "?", result: "dropped" });
        settle(w.hash, { error: new AppError("TX_DROPPED", "The transaction was dropped and never mined; retrying is safe") });
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
        await rawSend(row.raw).catch((err) => logger.warn("rebroadcast failed", { err: errText(err) }));
        expect++;
      }
      return;
    }
    // A nonce below our lowest in-flight tx was allocated but never reached the chain: fill it.
    logger.warn("relayer filling a nonce gap", { nonce: latest.toString() });
    const f = await currentFees();
    const raw = await signTx({
      chainId, type: "eip1559", to: account.address, value: 0n, gas: 21_000n, nonce: Number(latest),
      maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas,
    });
    await outbox.recordFiller(latest, keccak256(raw), raw);
    await rawSend(raw).catch((err) => logger.warn("gap filler failed", { err: errText(err) }));
  }

  // --- read-your-writes: one shared poller of the indexer ----------------------------------------
  const indexWaiters: { block: bigint; until: number; resolve(ok: boolean): void }[] = [];
  let indexPolling = false;
  async function pollIndexer() {
    indexPolling = true;
    try {
      while (indexWaiters.length) {
        const b = await deps.indexer.indexedBlock().catch(() => null);
        const now = Date.now();
        for (let i = indexWaiters.length - 1; i >= 0; i--) {
          const w = indexWaiters[i]!;
          if ((b !== null && b >= w.block) || now >= w.until) {
            indexWaiters.splice(i, 1);
            w.resolve(b !== null && b >= w.block);
          }
        }
        if (indexWaiters.length) await sleep(INDEXER_POLL_MS);
      }
    } finally {
      indexPolling = false;
    }
  }
  function waitIndexed(block: bigint): Promise<boolean> {
    return new Promise((resolve) => {
      indexWaiters.push({ block, until: Date.now() + indexerWaitMs, resolve });
      if (!indexPolling) void pollIndexer();
    });
  }

  // --- sending --------------------------------------------------------------------------------------
  const escrowTarget: TxTarget = { address: escrow, abi: escrowCallAbi };

  /** Simulation and gas in one call; a revert comes back decoded. */
  async function prepare(fn: string, args: readonly unknown[], target: TxTarget, resync: boolean) {
    const call = { account, address: target.address, abi: target.abi, functionName: fn, args } as const;
    const [gas, hint, fee] = await Promise.all([
      publicClient.estimateContractGas(call as never).catch(async (err: unknown) => {
        if (decodedRevert(err) || isChainUnreachable(err)) throw err;
        await publicClient.simulateContract(call as never); // decodes what estimateGas did not
        throw err;
      }),
      // The chain's count only when the counter may be off (first send, or another sender used the key).
      resync ? publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }).then(BigInt) : 0n,
      currentFees(),
    ]);
    const data = encodeFunctionData({ abi: target.abi, functionName: fn, args } as never);
    // Margin: state may change between the estimate and the mining (other txs in the same blocks).
    return { data, gas: (gas * 13n) / 10n + 10_000n, hint, fee };
  }

  // Sends queued in this process while an allocation transaction runs go into the next one together:
  // one lock/commit for many nonces (the lock's round trips, not signing, bound the rate otherwise).
  type Allocated = { row: OutboxRow } | { conflict: OutboxRow };
  const allocQueue: { item: AllocateItem; hint: bigint; reconcile: boolean; resolve(r: Allocated): void; reject(e: unknown): void }[] = [];
  let allocating = false;
  function allocate(item: AllocateItem, hint: bigint, reconcile: boolean): Promise<Allocated> {
    return new Promise((resolve, reject) => {
      allocQueue.push({ item, hint, reconcile, resolve, reject });
      if (!allocating) void drainAllocations();
    });
  }
  async function drainAllocations() {
    allocating = true;
    try {
      while (allocQueue.length) {
        const batch = allocQueue.splice(0, 64);
        const hint = batch.reduce((m, b) => (b.hint > m ? b.hint : m), 0n);
        try {
          const results = await outbox.allocate(batch.map((b) => b.item), { hint, reconcile: batch.some((b) => b.reconcile) });
          results.forEach((r, i) => batch[i]!.resolve(r));
        } catch (err) {
          if (!(err instanceof BatchConflict)) {
            for (const b of batch) b.reject(err);
            continue;
          }
          for (const b of batch) {
            try {
              b.resolve((await outbox.allocate([b.item], { hint: b.hint, reconcile: b.reconcile }))[0]!);
            } catch (e) {
              b.reject(e);
            }
          }
        }
      }
    } finally {
      allocating = false;
    }
  }

  /** Records and broadcasts a new transaction, or returns the recorded one of this request. */
  async function sendNew(fn: string, args: readonly unknown[], target: TxTarget, ref: RequestRef | null, replaceId?: number): Promise<OutboxRow> {
    for (let attempt = 0; ; attempt++) {
      const resync = !reconciled || attempt > 0;
      const p = await prepare(fn, args, target, resync);
      const reconcile = !reconciled;
      const result = await allocate({
        fn, ref, replaceId,
        sign: async (nonce) => {
          const raw = await signTx({
            chainId, type: "eip1559", to: target.address, data: p.data, value: 0n, gas: p.gas, nonce: Number(nonce),
            maxFeePerGas: p.fee.maxFeePerGas, maxPriorityFeePerGas: p.fee.maxPriorityFeePerGas,
          });
          return { hash: keccak256(raw), raw };
        },
      }, p.hint, reconcile);
      reconciled = true;
      if ("conflict" in result) return resume(result.conflict);
      const row = result.row;
      let outcome: Awaited<ReturnType<typeof rawSend>>;
      try {
        outcome = await rawSend(row.raw);
      } catch (err) {
        if (isChainUnreachable(err)) throw err; // stays 'signed': the watchdog or a retry rebroadcasts it
        // Rejected outright (funds, gas...): the nonce is unused; a no-op fills it once a later tx waits.
        await outbox.markStatus(row.id, "failed").catch(() => {});
        throw err;
      }
      if (outcome === "nonce-taken") {
        // Another sender used this key's nonce (an operator script): re-sync from the chain, re-sign.
        await outbox.markStatus(row.id, "dropped").catch(() => {});
        replaceId = row.id;
        logger.warn("relayer nonce taken by another sender, re-syncing", { fn, nonce: row.nonce.toString(), attempt });
        if (attempt >= 4) throw new AppError("CHAIN_UNAVAILABLE", "Could not get a nonce for the relayer; try again");
        continue;
      }
      if (deps.crashAfterBroadcast) {
        logger.error("RELAYER_CRASH_AFTER_BROADCAST: killing the process (test hook)", { hash: row.hash });
        process.kill(process.pid, "SIGKILL");
      }
      return row;
    }
  }

  /** A recorded tx of this request: make sure it is on its way again (same bytes). */
  async function resume(row: OutboxRow): Promise<OutboxRow> {
    if (row.status === "signed") await rawSend(row.raw).catch((err) => {
      if (isChainUnreachable(err)) throw err;
      logger.warn("relayer resume rebroadcast", { err: errText(err) });
    });
    return row;
  }

  return {
    address: account.address,
    /** Sends `fn`(`args`) on the escrow (or `target`); resolves after mining and indexing (bounded). */
    async send(fn: string, args: readonly unknown[], target: TxTarget = escrowTarget): Promise<SentTx> {
      const scope = requestScope.getStore();
      const ref: RequestRef | null = scope ? { scope: scope.scope, key: scope.key, requestHash: scope.requestHash, seq: scope.seq++ } : null;
      let row: OutboxRow;
      try {
        const recorded = ref ? await outbox.findForRequest(ref) : null;
        if (recorded && recorded.status !== "failed" && recorded.status !== "dropped") {
          logger.info("relayer resuming a recorded transaction", { fn, hash: recorded.hash, status: recorded.status });
          row = await resume(recorded);
        } else {
          row = await sendNew(fn, args, target, ref, recorded?.id);
        }
      } catch (err) {
        metrics.relayerTxs.inc({ fn, result: "rejected" });
        throw toAppError(fn, err);
      }
      let receipt: TransactionReceipt;
      try {
        receipt = await waitReceipt(row.hash, row.nonce);
      } catch (err) {
        metrics.relayerTxs.inc({ fn, result: "unconfirmed" });
        throw toAppError(fn, err);
      }
      if (receipt.status !== "success") {
        metrics.relayerTxs.inc({ fn, result: "reverted" });
        // Replay the call on the state it met to learn why (a race another tx won, typically).
        try {
          await publicClient.simulateContract({
            account, address: target.address, abi: target.abi, functionName: fn, args, blockNumber: receipt.blockNumber,
          } as never);
        } catch (err) {
          const mapped = toAppError(fn, err);
          if (mapped.code !== "INTERNAL_ERROR") throw mapped;
        }
        throw new AppError("TX_REVERTED", "The transaction reverted on-chain (another transaction changed the state first); reload and try again");
      }
      metrics.relayerTxs.inc({ fn, result: "mined" });
      const indexed = await waitIndexed(receipt.blockNumber);
      if (!indexed) logger.warn("indexer did not reach the block in time", { fn, block: receipt.blockNumber });
      const eventsAbi = target === escrowTarget ? (missionEscrowAbi as unknown as Abi) : target.abi;
      return { hash: row.hash, receipt, events: parseEventLogs({ abi: eventsAbi, logs: receipt.logs }) as unknown as ChainEvent[], indexed };
    },
  };
}
export type Relayer = ReturnType<typeof createRelayer>;
