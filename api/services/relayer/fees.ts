// The fees a new transaction is signed with: EIP-1559 from the chain (viem's estimateFeesPerGas),
// under an optional cap (RELAYER_MAX_FEE_GWEI). Above the cap a write waits a bounded time for the
// fee to fall, re-reading each second, then fails with 503 FEE_CAP_EXCEEDED: it never pays more
// than the cap, and nothing is signed or sent meanwhile.
import { formatGwei, parseGwei, type PublicClient } from "viem";
import { AppError } from "../../lib/errors.ts";
import type { Metrics } from "../../lib/metrics.ts";
import { sleep } from "./common.ts";

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}
export interface FeePolicy {
  /** The most the relayer pays per gas (wei); null: no cap. */
  capWei: bigint | null;
  /** How long a write waits for the fee to fall under the cap. */
  waitMs: number;
}

/** How often a fresh read is needed: the base fee moves 12.5 % per block at most. */
const CACHE_MS = 2_000;
const RECHECK_MS = 1_000;
const RETRY_AFTER_S = 30;

export function createFeeSource(publicClient: PublicClient, policy: FeePolicy, metrics: Pick<Metrics, "relayerBaseFee">) {
  // viem's estimateFeesPerGas reads the block, then the tip (eth_maxPriorityFeePerGas), in a row, and
  // the base fee's own block read came beside it: three calls, two deep. The tip does not need the
  // block, so the block and the tip are read at once, and viem computes the fees from them as it
  // would (base × its multiplier + tip): two calls, one deep, the same fees. A chain with its own
  // fee estimator (viem's chain.fees.estimateFeesPerGas) keeps viem's path.
  const estimate = async () => {
    const block = publicClient.getBlock({ blockTag: "latest" });
    if (publicClient.chain?.fees?.estimateFeesPerGas) return Promise.all([block, publicClient.estimateFeesPerGas()]);
    const [b, tip] = await Promise.all([block, publicClient.estimateMaxPriorityFeePerGas({ block } as never)]);
    return [b, await publicClient.estimateFeesPerGas({ block: b, request: { maxPriorityFeePerGas: tip } } as never)] as const;
  };
  let cached: { at: number; value: Promise<Fees & { base: bigint }> } | null = null;
  function read(fresh: boolean) {
    if (!fresh && cached && Date.now() - cached.at < CACHE_MS) return cached.value;
    const value = (async () => {
      const [block, est] = await estimate();
      const base = block.baseFeePerGas ?? 0n;
      metrics.relayerBaseFee.set(Number(base));
      return { base, maxFeePerGas: est.maxFeePerGas, maxPriorityFeePerGas: est.maxPriorityFeePerGas };
    })();
    cached = { at: Date.now(), value };
    value.catch(() => (cached = null));
    return value;
  }

  /** Fees for a new transaction, never above the cap; waits (bounded) while the network asks more. */
  async function currentFees(): Promise<Fees> {
    const cap = policy.capWei;
    const deadline = Date.now() + policy.waitMs;
    for (let fresh = false; ; fresh = true) {
      const f = await read(fresh);
      if (cap === null) return { maxFeePerGas: f.maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
      const needed = f.base + f.maxPriorityFeePerGas;
      if (needed <= cap) {
        // Headroom above the current need is kept only up to the cap.
        const maxFeePerGas = f.maxFeePerGas < cap ? f.maxFeePerGas : cap;
        return { maxFeePerGas, maxPriorityFeePerGas: f.maxPriorityFeePerGas };
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new AppError(
          "FEE_CAP_EXCEEDED",
          `The network fee is ${formatGwei(needed)} gwei per gas (base ${formatGwei(f.base)} gwei + tip ${formatGwei(f.maxPriorityFeePerGas)} gwei), above the relayer's cap of ${formatGwei(cap)} gwei; nothing was sent, retry later`,
          undefined,
          { "Retry-After": String(RETRY_AFTER_S) },
        );
      }
      await sleep(Math.min(RECHECK_MS, left));
    }
  }
  /** Starts the read a coming `currentFees()` will need, when none is cached (errors are left to that call). */
  currentFees.warm = (): void => void read(false).catch(() => {});
  return currentFees;
}

/** RELAYER_MAX_FEE_GWEI (decimal gwei, validated by api/env.ts; parseGwei is exact) as wei; off the local chain a default cap. */
export const DEFAULT_MAX_FEE_GWEI = "200";
export function feeCapWei(gwei: string | undefined, chainId: number): bigint | null {
  const text = gwei ?? (chainId === 31337 ? null : DEFAULT_MAX_FEE_GWEI);
  return text === null ? null : parseGwei(text);
}
