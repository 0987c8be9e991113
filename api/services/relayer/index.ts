// The ONE module that sends transactions (docs/decisions.md "relayer", "Relayer key pool (executor)"):
// a pool of key relayers (pool.ts), each built from its parts (key.ts: fees, nonce allocator, sender,
// receipt watcher, watchdog, replacement, balance).
import type { Address } from "viem";
import type { Relayer } from "../../lib/ports.ts";
import type { KeyDeps } from "./key.ts";
import { createRelayerPool } from "./pool.ts";

export { BUDGET_WINDOW_MS, relayBudget, relayingFor, unbudgeted, type RelayBudget } from "./budget.ts";
export { escrowCallAbi, relayerAccount, relayerAccounts, sendErrorKind, whenMined, withIdempotencyScope } from "./common.ts";
export { feeCapWei, type FeePolicy } from "./fees.ts";
export { createRelayerPool, type PoolDeps } from "./pool.ts";

/** One key sending every call directly (the rating sponsor, a deployment without an executor). */
export function createRelayer(deps: KeyDeps & { escrow: Address }): Relayer {
  const { account, outbox, ...rest } = deps;
  return createRelayerPool({ ...rest, keys: [{ account, outbox }], executor: null });
}
