// Money in trouble: what is left of a mission's escrow, who may offer or accept a settlement, the
// Split percentage a settlement shows, and the resolver pool's constants (pure, integer math).
import type { DisputeState, MissionState } from "./states.ts";

/**
 * The escrow's resolver pay: `min(RESOLVER_DECISION_FEE, pool)` per decision, from the pool that
 * `RESOLVER_POOL_BPS` of the protocol's share of every settlement funds. Mirrors the contract's
 * constants (the e2e test reads them from the chain and compares).
 */
export const RESOLVER_DECISION_FEE = 5_000_000n;
export const RESOLVER_POOL_BPS = 2_000n;

/** The mission states in which money can still leave the escrow for this mission. */
export const HOLDING_STATES: readonly MissionState[] = ["Open", "Accepted", "Submitted", "Disputed"];

/**
 * What the escrow still holds for the mission: reward − released − refunded while it is open, 0 once
 * it ended (approval, settlement, dispute, expiry or cancellation paid the rest out).
 */
export function remainingOf(m: { reward: bigint; released: bigint; refunded: bigint; state: MissionState }): bigint {
  if (!HOLDING_STATES.includes(m.state)) return 0n;
  const rest = m.reward - m.released - m.refunded;
  return rest > 0n ? rest : 0n;
}

/** The states in which a partial release (poster) or refund (performer) is allowed. */
export const PARTIAL_PAYMENT_STATES = ["Accepted", "Submitted"] as const satisfies readonly MissionState[];
/** The dispute states in which a settlement can still be offered and accepted. */
export const SETTLEABLE_DISPUTE_STATES = ["Pending", "Investigating"] as const satisfies readonly DisputeState[];

/**
 * Can a settlement be offered or accepted now? Submitted, or Disputed with the dispute still Pending
 * or Investigating (a decided dispute is the court's to finish). `null` when it can; else why not.
 */
export function settlementBlocked(state: MissionState, disputeState: DisputeState | null): string | null {
  if (state === "Submitted") return null;
  if (state === "Disputed") {
    if (disputeState && (SETTLEABLE_DISPUTE_STATES as readonly string[]).includes(disputeState)) return null;
    return `The dispute is ${disputeState ?? "unknown"}: a settlement is possible only while it is Pending or Investigating`;
  }
  return `The mission is ${state}: a settlement is possible only while it is Submitted or Disputed`;
}

/**
 * The Split percentage a settlement inside a dispute shows: performerAmount × 100 / remainder,
 * rounded half up, within 0..100 (display only; the exact amounts are the payout's). The contract
 * computes it the same way; a remainder of 0 cannot be settled, so it reads 0.
 */
export function settlementSplitPercentage(performerAmount: bigint, remainder: bigint): number {
  if (remainder <= 0n) return 0;
  const pct = (performerAmount * 200n + remainder) / (2n * remainder);
  return Number(pct > 100n ? 100n : pct < 0n ? 0n : pct);
}

/** What the pool paid a resolver who decided: the fee, less when the pool held less, 0 when empty. */
export function resolverPay(pool: bigint): bigint {
  return pool < RESOLVER_DECISION_FEE ? (pool > 0n ? pool : 0n) : RESOLVER_DECISION_FEE;
}

/**
 * How the resolver's pay went at the end of a dispute, for the dispute views:
 * `not_due` (no decision to pay: default outcome, no resolver), `paid` (the whole fee), `partial`
 * (the pool held less than the fee), `pool_empty` (due, but the pool had nothing).
 */
export type ResolverPayStatus = "not_due" | "paid" | "partial" | "pool_empty";
export function resolverPayStatus(due: boolean, paid: bigint): ResolverPayStatus {
  if (!due) return "not_due";
  if (paid === 0n) return "pool_empty";
  return paid >= RESOLVER_DECISION_FEE ? "paid" : "partial";
}
