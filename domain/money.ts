// Stablecoin amounts: bigint base units everywhere, decimal strings only at the API edge, converted
// here, exactly in both directions; no floating point.

export const DECIMALS = 6;
const SCALE = 10n ** BigInt(DECIMALS);
export const UINT64_MAX = 2n ** 64n - 1n;
/** The largest mission reward: MissionEscrow.MAX_REWARD (2**48 - 1 base units, 281474976.710655). */
export const MAX_REWARD_UNITS = 2n ** 48n - 1n;

const DECIMAL_RE = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,6}))?$/;

export class MoneyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MoneyError";
  }
}

/**
 * "12.5" -> 12500000n. Accepts plain non-negative decimals with at most 6 fractional digits and a
 * value up to uint64 max base units. Rejects signs, exponents, spaces, leading zeros ("01"),
 * a bare "." and more than 6 decimals.
 */
export function parseAmount(input: string): bigint {
  if (typeof input !== "string") throw new MoneyError("must be a decimal string");
  if (input.length > 40) throw new MoneyError("is too long");
  const m = DECIMAL_RE.exec(input);
  if (!m) {
    if (/^-/.test(input)) throw new MoneyError("must not be negative");
    if (/[eE]/.test(input)) throw new MoneyError("must not use exponent notation");
    if (/^\d+\.\d{7,}$/.test(input)) throw new MoneyError("must have at most 6 decimal places");
    throw new MoneyError("must be a decimal string such as \"12.5\" or \"0.000001\"");
  }
  const whole = BigInt(m[1]!);
  const frac = BigInt((m[2] ?? "").padEnd(DECIMALS, "0"));
  const units = whole * SCALE + frac;
  if (units > UINT64_MAX) throw new MoneyError("is too large (max 18446744073709.551615)");
  return units;
}

/** 12500000n -> "12.500000" (always six fractional digits, as the spec's mission amounts). */
export function formatAmount(units: bigint): string {
  if (typeof units !== "bigint") throw new MoneyError("must be a bigint");
  if (units < 0n) throw new MoneyError("must not be negative");
  const whole = units / SCALE;
  const frac = (units % SCALE).toString().padStart(DECIMALS, "0");
  return `${whole}.${frac}`;
}

/** Same as parseAmount but returns null instead of throwing (for query filters). */
export function tryParseAmount(input: string): bigint | null {
  try {
    return parseAmount(input);
  } catch {
    return null;
  }
}

/**
 * Net money of a finalized dispute for the two parties: deposits (DDR of the initiator, LPP of the
 * appellant) paid back are not earnings. earned = performer payout - performer deposits (>= 0);
 * spent = reward - (poster payout - poster deposits) (>= 0).
 */
export function disputeMoney(a: {
  reward: bigint;
  poster: string;
  performer: string;
  initiator: string;
  appellant: string | null;
  ddrAmount: bigint;
  lppAmount: bigint;
  posterAmount: bigint;
  performerAmount: bigint;
}): { earned: bigint; spent: bigint } {
  const eq = (x: string | null, y: string) => x !== null && x.toLowerCase() === y.toLowerCase();
  const deposits = (who: string) =>
    (eq(a.initiator, who) ? a.ddrAmount : 0n) + (eq(a.appellant, who) ? a.lppAmount : 0n);
  const earned = a.performerAmount - deposits(a.performer);
  const spent = a.reward - (a.posterAmount - deposits(a.poster));
  return { earned: earned > 0n ? earned : 0n, spent: spent > 0n ? spent : 0n };
}
