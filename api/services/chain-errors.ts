// Contract custom errors and transport failures -> API error codes (docs/decisions.md).
import { BaseError, ContractFunctionRevertedError, HttpRequestError, keccak256, TimeoutError, toHex } from "viem";
import { ASSIGNED_MISSION_STATES, DISPUTE_STATES, MISSION_STATES } from "../../domain/index.ts";
import { AppError } from "../lib/errors.ts";

/** The settlement calls: their amount field is `performerAmount`, and a decided dispute is a state conflict. */
const SETTLEMENT_FNS = new Set(["offerSettlement", "withdrawSettlement", "acceptSettlement"]);

/** RelayerExecutor's key role (keccak256("RELAYER_ROLE")). */
const RELAYER_ROLE = keccak256(toHex("RELAYER_ROLE"));

export interface DecodedRevert {
  name: string;
  args: readonly unknown[];
}

/** The custom error inside a viem error, if any. */
export function decodedRevert(err: unknown): DecodedRevert | null {
  if (!(err instanceof BaseError)) return null;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError && reverted.data?.errorName) {
    return { name: reverted.data.errorName, args: reverted.data.args ?? [] };
  }
  return null;
}

export function isChainUnreachable(err: unknown): boolean {
  if (err instanceof BaseError) {
    if (err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) return true;
  }
  const text = err instanceof Error ? `${err.message} ${String((err as { cause?: unknown }).cause ?? "")}` : "";
  return /ECONNREFUSED|fetch failed|socket hang up|ETIMEDOUT|ENOTFOUND/.test(text);
}

/** Maps a revert of `fn` to the API error the client should see. */
export function mapRevert(fn: string, revert: DecodedRevert): AppError {
  const n = revert.name;
  switch (n) {
    case "MissionEscrow_MissionNotFound":
      return new AppError("MISSION_NOT_FOUND", "Mission not found on-chain");
    case "MissionEscrow_InvalidState": {
      const state = MISSION_STATES[Number(revert.args[1])] ?? "unknown";
      if (fn === "acceptMission") {
        return (ASSIGNED_MISSION_STATES as readonly string[]).includes(state)
          ? new AppError("ALREADY_ACCEPTED", "The mission already has a performer")
          : new AppError("MISSION_NOT_OPEN", `The mission is ${state}, not Open`);
      }
      if (fn === "cancelMission" || fn === "updateDetails") {
        return new AppError("MISSION_NOT_OPEN", `The mission is ${state}, not Open`);
      }
      return new AppError("INVALID_STATE", `The mission is ${state}: action not allowed`);
    }
    case "MissionEscrow_Expired":
      return fn === "acceptMission"
        ? new AppError("MISSION_NOT_OPEN", "The mission has expired")
        : new AppError("INVALID_STATE", "The mission has expired");
    case "MissionEscrow_NotPoster":
      return new AppError("NOT_POSTER", "Only the poster may do this");
    case "MissionEscrow_NotPerformer":
      return new AppError("NOT_PERFORMER", "Only the performer may do this");
    case "MissionEscrow_NotParty":
      return new AppError("FORBIDDEN", "Only the poster or the performer may do this");
    case "MissionEscrow_PosterCannotPerform":
      return new AppError("INELIGIBLE", "The poster cannot accept their own mission");
    case "MissionEscrow_TermsChanged":
      return new AppError("TERMS_CHANGED", "The mission details changed; reload and try again");
    case "MissionEscrow_ReviewWindowClosed":
      return new AppError("INVALID_STATE", "The review window has closed");
    case "MissionEscrow_RewardTooSmall":
    case "MissionEscrow_RewardTooLarge":
      return new AppError("VALIDATION_ERROR", "rewardAmount is out of range", [
        { field: "body.rewardAmount", reason: "out of the escrow's range" },
      ]);
    case "MissionEscrow_InvalidExpiry":
      return new AppError("VALIDATION_ERROR", "expiresIn is out of range", [
        { field: "body.expiresIn", reason: "out of the escrow's range" },
      ]);
    case "MissionEscrow_GuildNotFound":
      return new AppError("VALIDATION_ERROR", "guildId: guild not found", [
        { field: "body.guildId", reason: "guild not found" },
      ]);
    case "GuildRegistry_NameTaken":
      return new AppError("GUILD_NAME_TAKEN", "A guild with this name already exists");
    case "Unauthorized":
      return new AppError(
        "FORBIDDEN",
        "The service's relayer is not your operator: approve it in the OperatorRegistry first",
      );
    case "ERC20InsufficientBalance":
    case "ERC20InsufficientAllowance":
      return new AppError("INSUFFICIENT_BALANCE", "Not enough stablecoin balance or allowance for the escrow");
    // Disputes (docs/disputes-notes.md)
    case "MissionEscrow_DisputeNotFound":
      return new AppError("DISPUTE_NOT_FOUND", "Dispute not found on-chain");
    // Money in trouble (docs/decisions.md "Money in trouble (API)")
    case "MissionEscrow_InvalidAmount":
      return new AppError("VALIDATION_ERROR", "The amount is out of range", [
        { field: SETTLEMENT_FNS.has(fn) ? "body.performerAmount" : "body.amount", reason: `must be at most the mission's remaining escrow (${String(revert.args[1])} base units)` },
      ]);
    case "MissionEscrow_OfferChanged":
      return new AppError("OFFER_CHANGED", `The offer changed (now ${String(revert.args[2])} base units): nothing was settled`);
    case "MissionEscrow_NoOffer":
      return new AppError("NO_OFFER", "There is no such settlement offer");
    case "MissionEscrow_InvalidDisputeState":
      if (SETTLEMENT_FNS.has(fn)) return new AppError("INVALID_STATE", `The dispute is ${DISPUTE_STATES[Number(revert.args[1])] ?? "unknown"}: no settlement now`);
      return new AppError("INVALID_DISPUTE_STATE", `The dispute is ${DISPUTE_STATES[Number(revert.args[1])] ?? "unknown"}: action not allowed`);
    case "MissionEscrow_NotResolver":
    case "MissionEscrow_ResolverIsParty":
    case "MissionEscrow_SameResolver":
      return new AppError("NOT_RESOLVER", "Not the dispute's (eligible) resolver");
    case "EnforcedPause":
      // The executor is paused (a key may be stolen): nothing is forwarded until the admin unpauses.
      return new AppError("CHAIN_UNAVAILABLE", "The service's executor is paused; try again later");
    case "AccessControlUnauthorizedAccount":
      // A pool key without RELAYER_ROLE on the executor: the service's misconfiguration, not the user's.
      if (revert.args[1] === RELAYER_ROLE) return new AppError("INTERNAL_ERROR", "Internal server error");
      return fn === "decideAppeal"
        ? new AppError("NOT_APPEALS_RESOLVER", "The service cannot decide appeals (APPEALS_ROLE missing)")
        : new AppError("NOT_RESOLVER", "RESOLVER_ROLE is required");
    case "MissionEscrow_InvalidOutcome":
      return new AppError("VALIDATION_ERROR", "Invalid outcome/splitPercentage", [
        { field: "body.splitPercentage", reason: "1..99 with Split only" },
      ]);
    case "MissionEscrow_DeadlineNotReached":
      return new AppError("DEADLINE_NOT_REACHED", `The deadline (${new Date(Number(revert.args[1]) * 1000).toISOString()}) has not passed yet`);
    case "MissionEscrow_DeadlinePassed":
      return new AppError("DEADLINE_PASSED", "The deadline for this action has passed");
    case "ReputationRegistry_AlreadyReferred":
      return new AppError("ALREADY_REFERRED", `Already referred by ${String(revert.args[1]).toLowerCase()}`);
    case "ReputationRegistry_SelfReferral":
      return new AppError("VALIDATION_ERROR", "Invalid request: body.referrer: cannot be yourself", [
        { field: "body.referrer", reason: "cannot be yourself" },
      ]);
    default:
      return new AppError("INTERNAL_ERROR", "Internal server error");
  }
}
