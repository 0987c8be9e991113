// The states of the marketplace's objects: the names of the Solidity enums of
// contracts/types/DataTypes.sol, in declaration order, so an enum's uint8 indexes these lists.
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
/** The escrow's admin-settable time windows (`Missions.Window`, the argument of `windowOf`/`setWindow`). */
export const ESCROW_WINDOWS = ["Review", "Resolution", "Appeal", "AppealDecision", "DisputeTimeout"] as const;

export type MissionState = (typeof MISSION_STATES)[number];
export type DisputeState = (typeof DISPUTE_STATES)[number];
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];
export type EscrowWindow = (typeof ESCROW_WINDOWS)[number];

/** States in which the mission has (had) a performer. */
export const ASSIGNED_MISSION_STATES = ["Accepted", "Submitted", "Completed", "Disputed"] as const satisfies readonly MissionState[];

/** A uint8 of the chain as a name; an unknown value (a newer contract) reads as the enum's first member. */
export const missionState = (i: number): MissionState => MISSION_STATES[i] ?? "Open";
export const disputeState = (i: number): DisputeState => DISPUTE_STATES[i] ?? "None";
export const disputeOutcome = (i: number): DisputeOutcome => DISPUTE_OUTCOMES[i] ?? "None";

/** The other way: each name of an enum list to its uint8 on the chain (its index), e.g. `codes(DISPUTE_OUTCOMES).Split` is 3. */
export function codes<const T extends readonly string[]>(list: T): { readonly [K in T[number]]: number } {
  return Object.fromEntries(list.map((name, i) => [name, i])) as { [K in T[number]]: number };
}
export const MISSION_STATE_CODE = codes(MISSION_STATES);
export const DISPUTE_OUTCOME_CODE = codes(DISPUTE_OUTCOMES);
export const ESCROW_WINDOW_CODE = codes(ESCROW_WINDOWS);

/**
 * Who won a finalized dispute: PosterWins -> poster wins, performer loses; PerformerWins -> the
 * reverse; Split and Cancelled -> nobody wins or loses (no dispute XP, no win/loss counted).
 */
export function disputeSides(outcome: DisputeOutcome): { winner: "poster" | "performer" | null } {
  if (outcome === "PosterWins") return { winner: "poster" };
  if (outcome === "PerformerWins") return { winner: "performer" };
  return { winner: null };
}

/** `list` without `drop`, order kept, typed as a non-empty tuple (what `z.enum` takes). */
export function except<const T extends readonly string[], X extends T[number]>(list: T, ...drop: X[]) {
  return list.filter((s) => !(drop as string[]).includes(s)) as [Exclude<T[number], X>, ...Exclude<T[number], X>[]];
}

/** A dispute's states once it exists ("None" is the contract's "no dispute"). */
export const RAISED_DISPUTE_STATES = except(DISPUTE_STATES, "None");
/** The outcomes a resolver can decide ("None" is "not decided yet"). */
export const DECIDED_OUTCOMES = except(DISPUTE_OUTCOMES, "None");
export type DecidedOutcome = (typeof DECIDED_OUTCOMES)[number];
