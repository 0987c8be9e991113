// Mission actions after creation: accept, submit, approve, cancel, dispute (role rules first,
// then the relayer; the chain's own checks back them up).
import type { Address, Hex } from "viem";
import type { z } from "zod";
import { disputeUuid, eligibility, eligibilityUser, formatAmount } from "../../domain/index.ts";
import { missionEscrowAbi } from "../../abis/index.ts";
import { hashCanonical, proofHash } from "../lib/canonical-json.ts";
import { AppError } from "../lib/errors.ts";
import type { MissionRow } from "../repositories/missions.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { DisputeBody, SubmitBody } from "../routes/missions/missions.schemas.ts";
import { eq, event, missionContext, salt, type MissionDeps } from "./mission-context.ts";

/** A mission row's side of the eligibility rule. */
export const missionTerms = (row: Pick<MissionRow, "guildUuid" | "minGuildXP" | "minReputation" | "premium">) => ({
  guild: row.guildUuid, minGuildXp: row.minGuildXP, minReputation: row.minReputation, premium: row.premium,
});

export function actionsService(deps: MissionDeps) {
  const { chain, missions, details } = deps;
  const { ready, read, mustFind, assertFunds, view, requireSetup } = missionContext(deps);
  return {
    async accept(user: UserRow, id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (row.state !== "Open") {
        throw row.performer
          ? new AppError("ALREADY_ACCEPTED", "The mission already has a performer")
          : new AppError("MISSION_NOT_OPEN", `The mission is ${row.state}, not Open`);
      }
      if (eq(row.poster, user.evmAddress)) throw new AppError("INELIGIBLE", "The poster cannot accept their own mission");
      // The one rule of the feed and the map, on the indexed facts as of this read, before anything is
      // simulated or sent (docs/decisions.md "Accept and a board publish").
      const facts = await missions.eligibilityFacts(user.evmAddress);
      const verdict = eligibility(eligibilityUser(facts.guilds, facts.reputation, facts.level), missionTerms(row));
      if (!verdict.eligible) {
        throw new AppError("INELIGIBLE", `Not eligible for this mission: ${verdict.reasons.map((r) => r.reason).join("; ")}`, verdict.reasons);
      }
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("acceptMission", [row.onChainId, user.evmAddress as Address, row.detailsHash]);
      return { success: true, transactionHash: tx.hash, mission: (await view(id, user.evmAddress as Address))! };
    },

    async submit(user: UserRow, id: string, input: z.infer<typeof SubmitBody>) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (!eq(row.performer, user.evmAddress)) throw new AppError("NOT_PERFORMER", "Only the performer may submit proof");
      if (row.state !== "Accepted") throw new AppError("INVALID_STATE", `The mission is ${row.state}, not Accepted`);
      await requireSetup(user.evmAddress);
      const proof = { proofType: input.proofType, proofData: input.proofData, notes: input.notes ?? "" };
      const hash = proofHash(proof);
      await details.insertProof({ proofHash: hash, missionOnChainId: row.onChainId.toString(), ...proof });
      const tx = await relayer.send("submitProof", [row.onChainId, hash]);
      return { success: true, transactionHash: tx.hash, proofHash: hash };
    },

    async approve(user: UserRow, id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (!eq(row.poster, user.evmAddress)) throw new AppError("NOT_POSTER", "Only the poster may approve");
      if (row.state !== "Submitted") throw new AppError("INVALID_STATE", `The mission is ${row.state}, not Submitted`);
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("approveMission", [row.onChainId]);
      const indexed = await missions.settlement(id);
      const s = event(tx, "MissionCompleted")?.settlement as Record<string, bigint> | undefined;
      const pick = (col: keyof NonNullable<typeof indexed>) => formatAmount(indexed ? indexed[col] : (s?.[col] ?? 0n));
      const settlement = {
        performerAmount: pick("performerAmount"),
        protocolAmount: pick("protocolAmount"),
        guildAmount: pick("guildAmount"),
        labsAmount: pick("labsAmount"),
        resolverAmount: pick("resolverAmount"),
      };
      return { success: true, transactionHash: tx.hash, settlement };
    },

    async cancel(user: UserRow, id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (!eq(row.poster, user.evmAddress)) throw new AppError("NOT_POSTER", "Only the poster may cancel");
      if (row.state !== "Open") throw new AppError("MISSION_NOT_OPEN", `The mission is ${row.state}: only an Open mission can be cancelled`);
      await requireSetup(user.evmAddress);
      const tx = await relayer.send("cancelMission", [row.onChainId]);
      const refund = (event(tx, "MissionCancelled")?.refund as bigint | undefined) ?? row.reward;
      return { success: true, transactionHash: tx.hash, refundAmount: formatAmount(refund) };
    },

    async dispute(user: UserRow, id: string, input: z.infer<typeof DisputeBody>) {
      const { relayer, escrow, deployment } = ready();
      const row = await mustFind(id);
      if (!eq(row.poster, user.evmAddress) && !eq(row.performer, user.evmAddress)) {
        throw new AppError("FORBIDDEN", "Only the poster or the performer may raise a dispute");
      }
      if (row.state !== "Submitted") throw new AppError("INVALID_STATE", `The mission is ${row.state}, not Submitted`);
      const ddr = await read(() =>
        chain.publicClient.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "reserveFor", args: [row.reward] }),
      );
      await requireSetup(user.evmAddress, ddr as bigint);
      await assertFunds(user.evmAddress as Address, ddr as bigint);
      // Salted, so the reason text cannot be guessed from the on-chain hash.
      const reasonHash = hashCanonical({ reason: input.reason, evidence: input.evidence ?? null, salt: salt() });
      const recordId = await details.insertDispute({
        missionOnChainId: row.onChainId.toString(), escrowAddress: escrow.toLowerCase(), initiatorId: user.id, reason: input.reason, evidence: input.evidence, reasonHash,
      });
      const tx = await relayer.send("raiseDispute", [row.onChainId, user.evmAddress as Address, reasonHash]);
      const raised = event(tx, "DisputeRaised");
      if (!raised) throw new AppError("INTERNAL_ERROR", "Internal server error");
      const onChainDisputeId = raised.disputeId as bigint;
      await details.setDisputeOnChainId(recordId, onChainDisputeId.toString());
      return {
        success: true,
        transactionHash: tx.hash,
        disputeId: disputeUuid(deployment.chainId, escrow, onChainDisputeId),
        onChainDisputeId: onChainDisputeId.toString(),
      };
    },
  };
}
