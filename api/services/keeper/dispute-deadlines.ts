// Dispute deadlines: finalize disputes whose deadline passed (appeal window, appeal decision, dispute
// timeout) and release those whose resolver missed the resolution deadline.
import type { Address, PublicClient } from "viem";
import { missionEscrowAbi } from "../../../abis/index.ts";
import { ESCROW_WINDOW_CODE } from "../../../domain/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { DeadlinesRepository } from "../../repositories/deadlines.repository.ts";
import type { Relayer } from "../../lib/ports.ts";

const DISPUTE_TIMEOUT_WINDOW = ESCROW_WINDOW_CODE.DisputeTimeout;
/** Reverts a lost race or a not-yet-due candidate produce in simulation; nothing is sent then. */
const EXPECTED = new Set(["DEADLINE_NOT_REACHED", "INVALID_DISPUTE_STATE"]);

export interface DisputeDeadlinesResult {
  finalized: string[];
  released: string[];
}

export function disputeDeadlines(deps: {
  escrow: Address;
  publicClient: PublicClient;
  relayer: Pick<Relayer, "send">;
  repo: Pick<DeadlinesRepository, "dueDisputes">;
  logger: Logger;
}) {
  return async function run(now: bigint): Promise<DisputeDeadlinesResult> {
    const out: DisputeDeadlinesResult = { finalized: [], released: [] };
    const timeout = await deps.publicClient.readContract({
      address: deps.escrow, abi: missionEscrowAbi, functionName: "windowOf", args: [DISPUTE_TIMEOUT_WINDOW],
    });
    for (const d of await deps.repo.dueDisputes(now, timeout)) {
      // An Investigating dispute past its resolution deadline is released (back to the queue);
      // past the dispute timeout too, finalize applies the default outcome instead.
      const fns = d.state === "Investigating" ? (["finalizeDispute", "releaseDispute"] as const) : (["finalizeDispute"] as const);
      for (const fn of fns) {
        try {
          await deps.relayer.send(fn, [BigInt(d.on_chain_id)]);
          (fn === "finalizeDispute" ? out.finalized : out.released).push(d.on_chain_id);
          break;
        } catch (err) {
          const code = (err as { code?: string }).code;
          if (!EXPECTED.has(code ?? "")) deps.logger.warn("dispute keeper: send failed", { fn, dispute: d.on_chain_id, code });
        }
      }
    }
    return out;
  };
}
