// The relayer key's ETH balance, read every few seconds (RELAYER_BALANCE_EVERY_MS) and on demand
// (/health). Below RELAYER_MIN_BALANCE_WEI the key is "low" (/health: degraded, naming it); below the
// cost of one transaction at the current fees it is "empty": writes answer 503 RELAYER_UNFUNDED
// instead of being signed and refused by the node.
import type { Address, PublicClient } from "viem";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { KeyBalance } from "../../lib/ports.ts";
import { errText } from "./common.ts";

/** Gas of the costliest send the service makes (a createMission with its margin), for "empty". */
const ONE_TX_GAS = 500_000n;

export function createBalanceMonitor(deps: {
  publicClient: PublicClient;
  address: Address;
  minWei: bigint;
  everyMs: number;
  metrics: Pick<Metrics, "relayerBalance">;
  logger: Logger;
}) {
  const { publicClient, address } = deps;
  let state: KeyBalance = { address, balanceWei: null, low: false, empty: false };
  let inFlight: Promise<KeyBalance> | null = null;

  function refresh(): Promise<KeyBalance> {
    inFlight ??= (async () => {
      try {
        const [balance, fees] = await Promise.all([publicClient.getBalance({ address }), publicClient.estimateFeesPerGas()]);
        state = { address, balanceWei: balance, low: balance < deps.minWei, empty: balance < ONE_TX_GAS * fees.maxFeePerGas };
        deps.metrics.relayerBalance.set({ address }, Number(balance));
      } catch (err) {
        deps.logger.warn("relayer balance check failed", { address, err: errText(err) });
      }
      return state;
    })().finally(() => (inFlight = null));
    return inFlight;
  }
  if (deps.everyMs > 0) setInterval(() => void refresh(), deps.everyMs).unref();
  void refresh();
  return { refresh, current: () => state };
}
export type BalanceMonitor = ReturnType<typeof createBalanceMonitor>;
