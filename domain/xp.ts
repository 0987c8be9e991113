// XP rules (pure, integer math). Multipliers are basis points (10_000 = 1.0). See docs/decisions.md.
export const BPS = 10_000n;
export const USDC = 1_000_000n; // the stablecoin's base units per whole unit

/**
 * The DDR (and LPP) of a reward: 5 %, at least 1 USDC. Mirrors the escrow's `reserveFor`
 * (SettlementMath.RESERVE_BPS and MIN_RESERVE are compile-time constants), saving an RPC call per
 * mission; the e2e test checks it against the contract.
 */
export const RESERVE_BPS = 500n;
export const MIN_RESERVE = USDC;
export function reserveFor(reward: bigint): bigint {
  const reserve = (reward * RESERVE_BPS) / BPS;
  return reserve < MIN_RESERVE ? MIN_RESERVE : reserve;
}

export const XP = {
  firstMission: 25,
  perfectRating: 10,
  referral: 20,
  curationSuccess: 20,
  disputeWon: 100,
  disputeLost: -50,
} as const;

export type XpSource =
  | "mission_complete"
  | "first_mission"
  | "perfect_rating"
  | "mission_streak"
  | "guild_board"
  | "referral"
  | "curation_success"
  | "dispute_won"
  | "dispute_lost";

/** A streak ends when more than this passes between two completions. */
export const STREAK_RESET_SECONDS = 7n * 24n * 3600n;
export const GUILD_BOARD_BPS = 11_000n;

/**
 * mission_complete base XP: 10 + 4 * floor(log2(1 + whole units of reward)), at most 50.
 * 0 USDC -> 10, 1 -> 14, 3 -> 18, 10 -> 22, 50 -> 30, 100 -> 34, 500 -> 42, >= 1023 -> 50.
 * Logarithmic so that XP tracks the order of magnitude of the work, not its price.
 */
export function missionCompleteXp(reward: bigint): number {
  const whole = reward / USDC;
  const log2 = (whole + 1n).toString(2).length - 1;
  return Math.min(50, 10 + 4 * log2);
}

export type BuilderLevel = "novice" | "apprentice" | "practitioner" | "advanced" | "expert" | "master";

/** The spec's builder table. No score at all is multiplier 1.0 (level null). */
export function builderLevel(score: number | null | undefined): { level: BuilderLevel | null; bps: bigint } {
  if (score === null || score === undefined) return { level: null, bps: BPS };
  if (score >= 100) return { level: "master", bps: 15_000n };
  if (score >= 90) return { level: "expert", bps: 13_500n };
  if (score >= 75) return { level: "advanced", bps: 12_000n };
  if (score >= 50) return { level: "practitioner", bps: 11_000n };
  if (score >= 25) return { level: "apprentice", bps: 10_500n };
  return { level: "novice", bps: BPS };
}

/** The spec's streak table; `streak` counts the completion being awarded. */
export function streakBps(streak: number): bigint {
  if (streak >= 20) return 13_500n;
  if (streak >= 10) return 12_500n;
  if (streak >= 5) return 11_500n;
  return BPS;
}

/** Streak after a completion at `now`, given the previous streak and completion time. */
export function nextStreak(prevStreak: number, lastCompletionAt: bigint | null, now: bigint): number {
  if (lastCompletionAt === null || now - lastCompletionAt > STREAK_RESET_SECONDS) return 1;
  return prevStreak + 1;
}

/** x * product(bps) / BPS^n, rounded half up (x >= 0). */
export function applyBps(x: bigint, ...bps: bigint[]): bigint {
  let den = 1n;
  let num = x;
  for (const m of bps) {
    num *= m;
    den *= BPS;
  }
  return (num * 2n + den) / (2n * den);
}

/** A positive award scaled by the builder multiplier (penalties are never scaled). */
export function withBuilder(xp: number, builderBps: bigint): number {
  return xp <= 0 ? xp : Number(applyBps(BigInt(xp), builderBps));
}

/**
 * Ledger entries of one undisputed completion. total = round(base * builder * streak * board);
 * mission_complete = round(base * builder); mission_streak and guild_board are the increments, so
 * the entries always add up to the total exactly.
 */
export function completionAward(args: {
  reward: bigint;
  streak: number;
  builderBps: bigint;
  onBoard: boolean;
}): { source: XpSource; xp: number }[] {
  const base = BigInt(missionCompleteXp(args.reward));
  const s = streakBps(args.streak);
  const b = args.onBoard ? GUILD_BOARD_BPS : BPS;
  const withB = applyBps(base, args.builderBps);
  const withS = applyBps(base, args.builderBps, s);
  const total = applyBps(base, args.builderBps, s, b);
  const out: { source: XpSource; xp: number }[] = [{ source: "mission_complete", xp: Number(withB) }];
  if (withS > withB) out.push({ source: "mission_streak", xp: Number(withS - withB) });
  if (total > withS) out.push({ source: "guild_board", xp: Number(total - withS) });
  return out;
}

/** Reputation change of a rating score (the spec's table). */
export function reputationDelta(score: number): number {
  return ({ 5: 5, 4: 2, 3: 0, 2: -3, 1: -5 } as Record<number, number>)[score] ?? 0;
}
