// Mission deadlines: Open or Accepted past expiresAt -> expireMission (the reward back to the poster;
// an Accepted mission without proof is the poster's reclaim, docs/decisions.md "Performer never
// submits"); Submitted past the review window -> claimAfterReview (released to the performer).
// Every candidate is re-read on-chain first: a mission a user already moved is skipped, so the keeper
// never sends a transaction that would revert.
import type { Address, PublicClient } from "viem";
import { missionEscrowAbi } from "../../../abis/index.ts";
import { MISSION_STATE_CODE } from "../../../domain/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { DeadlinesRepository } from "../../repositories/deadlines.repository.ts";
import type { Relayer } from "../../lib/ports.ts";

const { Open: OPEN, Accepted: ACCEPTED, Submitted: SUBMITTED } = MISSION_STATE_CODE;

export type MissionAction = "expireMission" | "claimAfterReview";

/** The action a mission's on-chain record calls for at `now`, or null (not due, or already moved). */
export function missionAction(m: { state: number; expiresAt: number | bigint; reviewDeadline: number | bigint }, now: bigint): MissionAction | null {
  if ((m.state === OPEN || m.state === ACCEPTED) && BigInt(m.expiresAt) <= now) return "expireMission";
  if (m.state === SUBMITTED && BigInt(m.reviewDeadline) !== 0n && BigInt(m.reviewDeadline) <= now) return "claimAfterReview";
  return null;
}

export interface MissionDeadlinesResult {
  expired: string[];
  released: string[];
  skipped: string[];
}

export function missionDeadlines(deps: {
  escrow: Address;
  publicClient: PublicClient;
  relayer: Pick<Relayer, "send">;
  repo: Pick<DeadlinesRepository, "dueMissions">;
  logger: Logger;
}) {
  return async function run(now: bigint): Promise<MissionDeadlinesResult> {
    const out: MissionDeadlinesResult = { expired: [], released: [], skipped: [] };
    for (const candidate of await deps.repo.dueMissions(now)) {
      const id = BigInt(candidate.on_chain_id);
      const m = await deps.publicClient.readContract({ address: deps.escrow, abi: missionEscrowAbi, functionName: "getMission", args: [id] });
      const fn = missionAction(m, now);
      if (!fn) {
        out.skipped.push(candidate.on_chain_id); // a user acted first, or the index is behind the chain
        continue;
      }
      try {
        await deps.relayer.send(fn, [id]);
        (fn === "expireMission" ? out.expired : out.released).push(candidate.on_chain_id);
      } catch (err) {
        // The relayer simulates before signing: a user's transaction that landed in between is refused
        // there, and no transaction is sent.
        out.skipped.push(candidate.on_chain_id);
        deps.logger.warn("mission keeper: send refused", { fn, mission: candidate.on_chain_id, code: (err as { code?: string }).code });
      }
    }
    return out;
  };
}
