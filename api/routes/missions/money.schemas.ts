// Bodies and answers of the money routes: settlement offers, partial release and refund.
import { z } from "@hono/zod-openapi";
import { MISSION_STATES } from "../../../domain/index.ts";
import { amount, Mission, Settlement } from "./missions.schemas.ts";

export const OfferBody = z
  .object({
    performerAmount: amount(true).openapi({
      example: "40.000000",
      description: "What the performer gets of the mission's remaining escrow (decimal string, at most 6 decimals, 0..remainingAmount); the poster gets the rest",
    }),
  })
  .openapi("SettlementOfferBody");

export const AcceptBody = z
  .object({
    performerAmount: amount(true).openapi({
      example: "40.000000",
      description: "The other party's offer, echoed: a different amount is refused with 409 OFFER_CHANGED and nothing is sent",
    }),
  })
  .openapi("SettlementAcceptBody");

export const PartialBody = z
  .object({
    amount: amount(false).openapi({ example: "10.000000", description: "Decimal string, at most 6 decimals, 0.000001..remainingAmount" }),
  })
  .openapi("PartialPaymentBody");

export const Offer = z
  .object({
    by: z.enum(["poster", "performer"]),
    performerAmount: z.string().openapi({ description: "Decimal string" }),
    posterAmount: z.string().openapi({ description: "The remaining escrow at the offer less performerAmount (decimal string)" }),
    createdAt: z.string().openapi({ description: "The block time of the offer" }),
  })
  .openapi("SettlementOffer");

export const OfferResult = z.object({
  data: z.object({ offer: Offer, transactionHash: z.string() }),
});

export const Offers = z.object({
  data: z.object({ offers: z.array(Offer).openapi({ description: "At most one per party" }) }),
});

export const Withdrawn = z.object({
  data: z.object({ success: z.boolean(), transactionHash: z.string() }),
});

export const Settled = z.object({
  data: z.object({
    success: z.boolean(),
    transactionHash: z.string(),
    state: z.enum(MISSION_STATES).openapi({ description: "Completed, or Cancelled when performerAmount is 0" }),
    performerAmount: z.string().openapi({ description: "The performer's part before the shares (decimal string)" }),
    posterAmount: z.string().openapi({ description: "Back to the poster (decimal string)" }),
    settlement: Settlement.openapi({ description: "How the performer's part was settled (as on approval; resolverAmount: into the resolver pool)" }),
    disputeId: z.string().nullable().openapi({ description: "The dispute the settlement finalized (outcome Split), if any" }),
    mission: Mission,
  }),
});

export const Released = z.object({
  data: z.object({
    success: z.boolean(),
    transactionHash: z.string(),
    amount: z.string(),
    settlement: Settlement.openapi({ description: "How the released amount was settled (as on approval)" }),
    mission: Mission,
  }),
});

export const Refunded = z.object({
  data: z.object({ success: z.boolean(), transactionHash: z.string(), amount: z.string(), mission: Mission }),
});
