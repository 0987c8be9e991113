// Each wallet's budget of relayed transactions (docs/decisions.md "Relayer budget"). A signed-in
// request runs "on behalf of" its wallet (set by a middleware); every new transaction the pool sends
// inside that scope is charged to the wallet before anything is simulated or sent. The keeper, the
// reactors (achievement mints) and the faucet (its own hourly limit) send outside any wallet's scope.
// Counted in PostgreSQL (api.rate_limit_buckets, keys `relay:<address>`), so API copies share it.
import { AsyncLocalStorage } from "node:async_hooks";
import { AppError } from "../../lib/errors.ts";

export const BUDGET_WINDOW_MS = 3_600_000;
const KEY_PREFIX = "relay:";

const onBehalfOf = new AsyncLocalStorage<{ wallet: string } | null>();

/** Runs `fn` on behalf of `wallet`: the relayed transactions it causes are charged to that wallet. */
export const relayingFor = <T>(wallet: string, fn: () => Promise<T>): Promise<T> => onBehalfOf.run({ wallet: wallet.toLowerCase() }, fn);
/** Runs `fn` outside any wallet's budget (a send with a limit of its own, such as the faucet's). */
export const unbudgeted = <T>(fn: () => Promise<T>): Promise<T> => onBehalfOf.run(null, fn);
/** The wallet the current send is for, or null (the service's own work). */
export const budgetWallet = (): string | null => onBehalfOf.getStore()?.wallet ?? null;

export interface BudgetStore {
  /** Counts one in `key`'s window (a new window when the last began `windowMs` or more before `now`). */
  hit(key: string, now: number, windowMs: number): Promise<{ count: number; windowStart: number }>;
  purge(keyPrefix: string, before: number): Promise<void>;
}

export interface RelayBudget {
  /** Charges one transaction to `wallet`; 429 RATE_LIMITED with Retry-After past the budget. */
  charge(wallet: string): Promise<void>;
}

/**
 * `perHour` transactions per wallet in a window that opens at the wallet's first charge and lasts an
 * hour (not aligned to the clock: no double budget across a boundary right after a first charge).
 */
export function relayBudget(store: BudgetStore, perHour: number, now: () => number = Date.now): RelayBudget {
  let lastPurge = 0;
  return {
    async charge(wallet) {
      const t = now();
      if (t - lastPurge > 60_000) {
        lastPurge = t;
        void store.purge(KEY_PREFIX, t - BUDGET_WINDOW_MS).catch(() => {});
      }
      const { count, windowStart } = await store.hit(`${KEY_PREFIX}${wallet.toLowerCase()}`, t, BUDGET_WINDOW_MS);
      if (count <= perHour) return;
      const retryAfter = Math.max(1, Math.ceil((windowStart + BUDGET_WINDOW_MS - t) / 1000));
      throw new AppError(
        "RATE_LIMITED",
        `This wallet has used its ${perHour} relayed transactions for this hour: try again in ${retryAfter} s`,
        undefined,
        { "Retry-After": String(retryAfter) },
      );
    },
  };
}
