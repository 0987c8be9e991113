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
  /** Takes back one hit of `key` in the window that began at `windowStart`. */
  unhit(key: string, windowStart: number): Promise<void>;
  purge(keyPrefix: string, before: number): Promise<void>;
}

/** A charge made before it is known whether its send happens (`RelayBudget.reserve`). */
export interface Reservation {
  /** For the send: resolves when the charge is within the budget, else 429 RATE_LIMITED (as `charge`). */
  take(): Promise<void>;
  /** No send after all: the hit is taken back (whatever its verdict), as if it had never been counted. */
  refund(): Promise<void>;
}

export interface RelayBudget {
  /** Charges one transaction to `wallet`; 429 RATE_LIMITED with Retry-After past the budget. */
  charge(wallet: string): Promise<void>;
  /** Charges now (beside the caller's checks) for a send that may not happen: see `Reservation`. */
  reserve(wallet: string): Reservation;
}

/**
 * `perHour` transactions per wallet in a window that opens at the wallet's first charge and lasts an
 * hour (not aligned to the clock: no double budget across a boundary right after a first charge).
 */
export function relayBudget(store: BudgetStore, perHour: number, now: () => number = Date.now): RelayBudget {
  let lastPurge = 0;
  const keyOf = (wallet: string) => `${KEY_PREFIX}${wallet.toLowerCase()}`;
  async function hit(wallet: string) {
    const t = now();
    if (t - lastPurge > 60_000) {
      lastPurge = t;
      void store.purge(KEY_PREFIX, t - BUDGET_WINDOW_MS).catch(() => {});
    }
    return { t, ...(await store.hit(keyOf(wallet), t, BUDGET_WINDOW_MS)) };
  }
  function verdict({ t, count, windowStart }: { t: number; count: number; windowStart: number }): void {
    if (count <= perHour) return;
    const retryAfter = Math.max(1, Math.ceil((windowStart + BUDGET_WINDOW_MS - t) / 1000));
    throw new AppError(
      "RATE_LIMITED",
      `This wallet has used its ${perHour} relayed transactions for this hour: try again in ${retryAfter} s`,
      undefined,
      { "Retry-After": String(retryAfter) },
    );
  }
  return {
    async charge(wallet) {
      verdict(await hit(wallet));
    },
    reserve(wallet) {
      const counted = hit(wallet);
      counted.catch(() => {}); // read by take() or refund()
      return {
        take: () => counted.then(verdict),
        refund: () => counted.then((h) => store.unhit(keyOf(wallet), h.windowStart), () => {}),
      };
    },
  };
}
