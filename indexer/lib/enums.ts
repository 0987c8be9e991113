// Names of the Solidity enums of contracts/types/DataTypes.sol, in declaration order.
export const MISSION_STATES = [
  "Open",
  "Accepted",
  "Submitted",
  "Completed",
  "Cancelled",
  "Expired",
  "Disputed",
] as const;
export const DISPUTE_STATES = ["None", "Pending", "Investigating", "Resolved", "Appealed", "Finalized"] as const;
export const DISPUTE_OUTCOMES = ["None", "PosterWins", "PerformerWins", "Split", "Cancelled"] as const;

export type MissionState = (typeof MISSION_STATES)[number];
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

export const missionState = (i: number): MissionState => MISSION_STATES[i] ?? "Open";
export const disputeOutcome = (i: number): DisputeOutcome => DISPUTE_OUTCOMES[i] ?? "None";

/** Guild role bits (Guilds library). */
export const ROLE_CURATOR = 1;
export const ROLE_OFFICER = 2;
export const ROLE_ADMIN = 4;
export const roleFlags = (roles: number) => ({
  roles,
  isCurator: (roles & ROLE_CURATOR) !== 0,
  isOfficer: (roles & ROLE_OFFICER) !== 0,
  isAdmin: (roles & ROLE_ADMIN) !== 0,
});

/**
 * Who won a finalized dispute: PosterWins -> poster wins, performer loses; PerformerWins -> the
 * reverse; Split and Cancelled -> nobody wins or loses (no dispute XP, no win/loss counted).
 */
export function disputeSides(outcome: DisputeOutcome): { winner: "poster" | "performer" | null } {
  if (outcome === "PosterWins") return { winner: "poster" };
  if (outcome === "PerformerWins") return { winner: "performer" };
  return { winner: null };
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
