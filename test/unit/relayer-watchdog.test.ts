import { TransactionReceiptNotFoundError, type Hex, type TransactionReceipt } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createWatchdog, DROP_CONFIRM_MS } from "../../api/services/relayer/watchdog.ts";
import type { Outcome, Waiter } from "../../api/services/relayer/receipt-watcher.ts";

const HASH = `0x${"ab".repeat(32)}` as Hex;
const account = privateKeyToAccount(`0x${"11".repeat(32)}`);

/** A watchdog over one waiter (nonce 3) whose nonce the chain counts as used (latest = pending = 5). */
function setup(receiptAt: () => TransactionReceipt | null) {
  const settled: Outcome[] = [];
  const dropped: Hex[] = [];
  const waiter: Waiter = { hash: HASH, hashes: [HASH], nonce: 3n, since: Date.now() - 10_000, sentBlock: null, sentAt: 0, list: [] };
  const publicClient = {
    getTransactionCount: async () => 5,
    getTransactionReceipt: async ({ hash }: { hash: Hex }) => {
      const r = receiptAt();
      if (!r) throw new TransactionReceiptNotFoundError({ hash });
      return r;
    },
  };
  const watchdog = createWatchdog({
    account, chainId: 31337, publicClient: publicClient as never,
    outbox: { markDroppedByHash: async (h: Hex) => void dropped.push(h), liveFrom: async () => [] } as never,
    logger: { warn: () => {}, info: () => {}, error: () => {} } as never,
    metrics: { relayerTxs: { inc: () => {} } } as never,
    currentFees: async () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    rawSend: async () => "sent", signTx: account.signTransaction,
    pending: () => (settled.length ? [] : [waiter]),
    settle: (_h, outcome) => void settled.push(outcome),
  });
  return { watchdog, settled, dropped };
}

describe("relayer watchdog: a drop is confirmed before it fails a write", () => {
  afterEach(() => vi.useRealTimers());

  it("answers TX_DROPPED only after a second check at least a second after the first", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { watchdog, settled, dropped } = setup(() => null);
    await watchdog();
    expect(settled, "one check is not enough").toEqual([]);
    vi.advanceTimersByTime(DROP_CONFIRM_MS / 2);
    await watchdog();
    expect(settled, "a second check too soon is not enough").toEqual([]);
    vi.advanceTimersByTime(DROP_CONFIRM_MS / 2);
    await watchdog();
    expect(settled).toHaveLength(1);
    expect((settled[0] as { error: { code: string } }).error.code).toBe("TX_DROPPED");
    expect(dropped).toEqual([HASH]);
  });

  it("settles with the receipt when it shows up after a first 'not found'", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let receipt: TransactionReceipt | null = null;
    const { watchdog, settled, dropped } = setup(() => receipt);
    await watchdog();
    expect(settled).toEqual([]);
    receipt = { transactionHash: HASH, status: "success", blockNumber: 9n } as TransactionReceipt;
    vi.advanceTimersByTime(DROP_CONFIRM_MS);
    await watchdog();
    expect(settled).toEqual([{ receipt }]);
    expect(dropped).toEqual([]);
  });
});
