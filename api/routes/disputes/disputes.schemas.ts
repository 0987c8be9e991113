import { z } from "@hono/zod-openapi";
import { DECIDED_OUTCOMES, DISPUTE_OUTCOMES, RAISED_DISPUTE_STATES } from "../../../domain/index.ts";

export const ROLES = ["poster", "performer", "resolver", "initiator"] as const;
export const SIDES = ["poster", "performer"] as const;

export const IdParam = z.object({ id: z.string().uuid().openapi({ param: { name: "id", in: "path" } }) });
export const MissionParam = z.object({ missionId: z.string().uuid().openapi({ param: { name: "missionId", in: "path" } }) });
const userId = z.string().min(1).max(64).openapi({ description: "An API user id (UUID) or, for a user without an API account, the lowercase address" });
export const UserParam = z.object({ userId: userId.openapi({ param: { name: "userId", in: "path" } }) });
export const ResolverParam = z.object({ resolverId: userId.openapi({ param: { name: "resolverId", in: "path" } }) });

export const ListQuery = z.object({
  state: z.enum(RAISED_DISPUTE_STATES).optional(),
  outcome: z.enum(DISPUTE_OUTCOMES).optional(),
  role: z.enum(ROLES).optional().openapi({ description: "Relative to the signed-in user; without a token: 401" }),
});
export const RoleQuery = z.object({ role: z.enum(ROLES).optional() });
export const SideQuery = z.object({ type: z.enum(SIDES) });

const User = z.object({ id: z.string(), evmAddress: z.string(), displayName: z.string() }).openapi("DisputeUser");
const base = {
  id: z.string(),
  missionId: z.string(),
  state: z.enum(RAISED_DISPUTE_STATES),
  outcome: z.enum(DISPUTE_OUTCOMES),
  poster: User,
  performer: User,
  initiator: User,
  resolver: User.nullable(),
  ddrAmount: z.number().int().openapi({ description: "Dispute reserve, stablecoin base units (6 decimals)" }),
  createdAt: z.string(),
};
export const DisputeSummary = z
  .object({
    ...base,
    mission: z.object({ title: z.string(), category: z.string(), rewardAmount: z.string().openapi({ description: "Base units, integer string" }) }),
  })
  .openapi("DisputeSummary");
const amount = z.string().nullable();
export const DisputeDetail = z
  .object({
    ...base,
    onChainId: z.string(),
    escrowAddress: z.string(),
    lppAmount: z.number().int().openapi({ description: "Appeal pool paid, base units; 0 without an appeal" }),
    posterEvidenceHash: z.string().nullable(),
    performerEvidenceHash: z.string().nullable(),
    resolutionHash: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    appealDeadline: z.string().nullable(),
    finalizedAt: z.string().nullable(),
    splitPercentage: z.number().int().nullable().openapi({ description: "The performer's percent of the disputed remainder (Split); for a settlement derived from its amounts and rounded half up, display only (the exact amounts are in payout)" }),
    missionOnChainId: z.string(),
    resolutionDeadline: z.string().nullable(),
    appellant: z.string().nullable(),
    appealDecisionDeadline: z.string().nullable(),
    appealOverturned: z.boolean().nullable(),
    byDefault: z.boolean().nullable(),
    missionState: z.string().nullable(),
    payout: z
      .object({
        posterAmount: amount, performerAmount: amount, protocolAmount: amount, guildAmount: amount, labsAmount: amount,
        resolverAmount: amount.openapi({ description: "What the resolver pool paid the resolver (not out of the parties' amounts)" }),
        poolAmount: amount.openapi({ description: "The resolver pool's share of the settled performer part" }),
      })
      .nullable()
      .openapi({ description: "Exact payout (decimal strings) once Finalized" }),
    settledByAgreement: z.boolean().openapi({ description: "Finalized by an accepted settlement offer (POST /missions/{id}/settlement/accept)" }),
    resolverPayment: z
      .object({
        resolver: z.string().nullable().openapi({ description: "The resolver the pay was due to (null: none due)" }),
        fee: z.string().openapi({ description: "The escrow's fee per decision (decimal string)" }),
        amount: z.string().openapi({ description: "What the pool paid (decimal string)" }),
        status: z.enum(["not_due", "paid", "partial", "pool_empty"]).openapi({
          description: "not_due: nobody decided (default outcome, or settled before a resolver was assigned); paid: the whole fee; partial: the pool held less; pool_empty: the pool had nothing",
        }),
        poolAfter: z.string().nullable().openapi({ description: "The pool after paying (null when nothing was paid)" }),
      })
      .nullable()
      .openapi({ description: "The resolver's pay from the resolver pool, once Finalized" }),
  })
  .openapi("DisputeDetail");
export const DisputeList = z.object({ disputes: z.array(DisputeSummary) });
export const Stats = z
  .object({
    totalAsPoster: z.number(), totalAsPerformer: z.number(), totalAsResolver: z.number(), totalAsInitiator: z.number(),
    wins: z.number(), losses: z.number(), splits: z.number(), winRate: z.number().openapi({ description: "Percent, 2 decimals" }),
  })
  .openapi("DisputeStats");

export const EvidenceForm = z.object({
  evidence: z.instanceof(File, { message: "a file is required" }).openapi({ type: "string", format: "binary", description: "PNG, JPEG, PDF, plain text or JSON; at most 5 MiB" }),
  type: z.enum(SIDES),
});
export const EvidenceResult = z.object({ success: z.boolean(), evidenceHash: z.string(), message: z.string() });

export const DecisionBody = z
  .object({
    outcome: z.enum(DECIDED_OUTCOMES),
    splitPercentage: z.number().int().min(1).max(99).optional().openapi({ description: "Required with Split only: the performer's percent of the net reward" }),
    resolution: z.string().trim().min(1).max(5000).openapi({ description: "Stored off-chain; its salted keccak256 goes on-chain" }),
  })
  .strict();
export const ActionResult = z.object({ success: z.boolean(), transactionHash: z.string(), dispute: DisputeDetail });
