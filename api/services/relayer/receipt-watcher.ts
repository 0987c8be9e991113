// One shared block watcher for every waiting send (eth_getBlockReceipts per new block, not one
// poller per request). Outcomes are written to the outbox in batches, off the request path.
import { formatTransactionReceipt, numberToHex, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import { errText, sleep } from "./common.ts";

const RECEIPT_TIMEOUT_MS = 60_000;
const BLOCK_POLL_MS = 15;
/** How long the direct receipt look after a broadcast gets before the block watcher takes over. */
const DIRECT_LOOK_MS = 40;
/** The pauses before each repeated direct look (their sum stays under DIRECT_LOOK_MS). */
const DIRECT_RETRIES_MS = [3, 8, 15];
/** A waiter older than this makes the watchdog look for a dropped tx or a nonce gap. */
export const STUCK_MS = 1_500;
const WATCHDOG_EVERY_MS = 1_000;
/** A replacement waits RELAYER_REPLACE_AFTER_BLOCKS blocks and at least this many ms per block. */
const MIN_BLOCK_MS = 1_000;

/** The requests waiting for one transaction (one nonce), under every hash it was broadcast as. */
export interface Waiter {
  /** The latest broadcast. */
  hash: Hex;
  hashes: Hex[];
  nonce: bigint;
  since: number;
  /** The head when the latest broadcast was first watched (null until a block scan saw it). */
  sentBlock: bigint | null;
  /** When sentBlock was set (ms). */
  sentAt: number;
  list: { resolve(r: TransactionReceipt): void; reject(e: unknown): void }[];
}
export type Outcome = { receipt: TransactionReceipt } | { error: unknown };

export function createReceiptWatcher(deps: {
  publicClient: PublicClient;
  address: Address;
  outbox: OutboxRepository;
  logger: Logger;
  /** Runs (at most every second) while a waiter is older than STUCK_MS. */
  watchdog: () => Promise<void>;
  /** Blocks a broadcast may wait unmined before it is replaced (0: never). */
  replaceAfterBlocks: number;
  /** Re-sends the tx with higher fees; its new hash, or null (not holding the line, at the ceiling, or moved on). */
  replace: (w: Waiter, chain: { minedCount: bigint; baseFee: bigint }) => Promise<Hex[] | null>;
}) {
  const { publicClient, outbox, logger } = deps;
  const sender = deps.address.toLowerCase();
  // Every broadcast hash of a waited tx maps to its one Waiter.
  const waiters = new Map<Hex, Waiter>();
  const groups = () => [...new Set(waiters.values())];
  let watching = false;
  let lastScanned: bigint | null = null;
  let lastWatchdog = 0;

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

  function settle(hash: Hex, outcome: Outcome) {
    const w = waiters.get(hash);
    if (!w) return;
    for (const h of w.hashes) waiters.delete(h);
    if ("receipt" in outcome) markMined(outcome.receipt);
    for (const x of w.list) "receipt" in outcome ? x.resolve(outcome.receipt) : x.reject(outcome.error);
  }

  /** Adds broadcast hashes of a waited tx (a replacement, or one another API copy sent). */
  function addHashes(w: Waiter, hashes: Hex[]) {
    for (const h of hashes) {
      if (w.hashes.includes(h)) continue;
      w.hashes.push(h);
      waiters.set(h, w);
    }
  }

  // Receipts the broadcast itself returned (eth_sendRawTransactionSync), until their waiter comes.
  const early = new Map<Hex, { receipt: TransactionReceipt; at: number }>();
  /** A receipt known before (or without) a block scan: settles its waiter, now or when it comes. */
  function known(receipt: TransactionReceipt) {
    const hash = receipt.transactionHash;
    if (waiters.has(hash)) return settle(hash, { receipt });
    const now = Date.now();
    for (const [h, e] of early) if (now - e.at > RECEIPT_TIMEOUT_MS) early.delete(h);
    early.set(hash, { receipt, at: now });
  }

  /** Resolves with the receipt of whichever of `hashes` (broadcasts of one nonce) is mined. */
  function waitReceipt(hashes: Hex[], nonce: bigint): Promise<TransactionReceipt> {
    const hash = hashes[0]!;
    const p = new Promise<TransactionReceipt>((resolve, reject) => {
      let w = hashes.map((h) => waiters.get(h)).find((x) => x);
      if (!w) waiters.set(hash, (w = { hash, hashes: [hash], nonce, since: Date.now(), sentBlock: null, sentAt: 0, list: [] }));
      addHashes(w, hashes);
      w.list.push({ resolve, reject });
    });
    for (const h of hashes) {
      const e = early.get(h);
      if (!e) continue;
      early.delete(h);
      settle(h, { receipt: e.receipt });
      return p;
    }
    // Automine (anvil) mines right after eth_sendRawTransaction answers: a direct look usually
    // settles it; a look that came too early is repeated a few times within DIRECT_LOOK_MS (before,
    // one miss cost the block watcher's whole DIRECT_LOOK_MS + BLOCK_POLL_MS).
    const look = (k: number) => {
      const w = waiters.get(hash);
      if (!w) return;
      void Promise.all(w.hashes.map((h) => publicClient.getTransactionReceipt({ hash: h }).then((r) => (settle(h, { receipt: r }), true), () => false)))
        .then((found) => {
          if (!found.includes(true) && k < DIRECT_RETRIES_MS.length) setTimeout(() => look(k + 1), DIRECT_RETRIES_MS[k]!);
        });
    };
    look(0);
    if (!watching) void watch();
    return p;
  }

  async function scanBlock(n: bigint) {
    const raw = await publicClient.request({ method: "eth_getBlockReceipts", params: [numberToHex(n)] });
    for (const r of raw ?? []) {
      if (r.from?.toLowerCase() !== sender) continue;
      const receipt = formatTransactionReceipt(r);
      if (waiters.has(receipt.transactionHash)) settle(receipt.transactionHash, { receipt });
      else markMined(receipt); // another copy's or a crashed request's tx: bookkeeping only
    }
  }

  async function step() {
    // Waiters whose direct look (just after broadcast) is still in flight need no scan yet: on an
    // automining node that look settles nearly all of them, and scanning would double the reads.
    const now0 = Date.now();
    const old = groups().filter((w) => now0 - w.since > DIRECT_LOOK_MS);
    if (!old.length) {
      lastScanned = null;
      return;
    }
    const head = await publicClient.getBlockNumber({ cacheTime: 0 });
    if (lastScanned === null) {
      // (Re)starting: look the old waiters up once, then follow new blocks.
      await Promise.all(old.flatMap((w) => w.hashes.map((h) => publicClient.getTransactionReceipt({ hash: h }).then((r) => settle(h, { receipt: r }), () => {}))));
      lastScanned = head;
    }
    let from = lastScanned + 1n;
    if (head - from > 64n) from = head - 64n;
    const blocks: bigint[] = [];
    for (let b = from; b <= head; b++) blocks.push(b);
    await Promise.all(blocks.map(scanBlock));
    lastScanned = head;
    if (deps.replaceAfterBlocks > 0) await replaceStuck(head);
    if (Date.now() - lastWatchdog > WATCHDOG_EVERY_MS) {
      const oldest = Math.min(...groups().map((w) => w.since));
      if (Date.now() - oldest > STUCK_MS) {
        lastWatchdog = Date.now();
        await deps.watchdog();
      }
    }
  }

  /** A broadcast left unmined for replaceAfterBlocks blocks is re-sent with higher fees (same nonce). */
  async function replaceStuck(head: bigint) {
    const due = groups().filter((w) => {
      if (w.sentBlock === null) {
        w.sentBlock = head;
        w.sentAt = Date.now();
      }
      // Blocks and time: a node that mines on demand (anvil's automine) makes a block of every tx,
      // and a tx waiting behind other keys' txs for a few such blocks is not stuck.
      return head - w.sentBlock >= BigInt(deps.replaceAfterBlocks) && Date.now() - w.sentAt >= deps.replaceAfterBlocks * MIN_BLOCK_MS;
    });
    if (!due.length) return;
    const [minedCount, block] = await Promise.all([
      publicClient.getTransactionCount({ address: deps.address, blockTag: "latest" }).then(BigInt),
      publicClient.getBlock({ blockNumber: head }),
    ]);
    const chain = { minedCount, baseFee: block.baseFeePerGas ?? 0n };
    for (const w of due) {
      w.sentBlock = head; // replaced, left alone, at the ceiling or failed: look again after as many blocks
      w.sentAt = Date.now();
      try {
        const hashes = await deps.replace(w, chain);
        if (!hashes || !waiters.has(w.hash)) continue;
        addHashes(w, hashes);
        w.hash = hashes[0]!;
      } catch (err) {
        logger.warn("relayer replacement failed", { hash: w.hash, err: errText(err) });
      }
    }
  }

  async function watch() {
    watching = true;
    try {
      while (waiters.size) {
        try {
          await step();
        } catch (err) {
          logger.warn("relayer block watcher", { err: errText(err) });
        }
        const now = Date.now();
        for (const w of groups()) {
          if (now - w.since > RECEIPT_TIMEOUT_MS) {
            settle(w.hash, { error: new AppError("CHAIN_UNAVAILABLE", "The transaction was not confirmed in time; retry with the same Idempotency-Key") });
          }
        }
        await sleep(BLOCK_POLL_MS);
      }
    } finally {
      watching = false;
      lastScanned = null;
    }
  }

  return {
    waitReceipt,
    known,
    settle,
    /** Each waited transaction once. */
    pending: (): Waiter[] => groups(),
  };
}
export type ReceiptWatcher = ReturnType<typeof createReceiptWatcher>;
