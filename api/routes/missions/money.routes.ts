// The money routes of a mission in trouble: settlement offers (before or during a dispute), partial
// release (poster) and partial refund (performer). All relayed on-chain; answers after indexing.
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { IdParam } from "./missions.schemas.ts";
import * as s from "./money.schemas.ts";

const tags = ["Missions"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodTypeAny>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const write = { security: bearer, middleware: requireUser() };
const txErrors = errorResponses(400, 401, 403, 404, 409, 422, 429, 503);

export const offer = createRoute({
  method: "post", path: "/missions/{id}/settlement", operationId: "offerSettlement", tags, ...write,
  summary: "Offer a settlement (poster or performer; Submitted, or Disputed while the dispute is Pending or Investigating)",
  description: "Records the offer on-chain, replacing the caller's earlier one. 403 FORBIDDEN for anyone but the two parties; 409 INVALID_STATE in another state; 400 when performerAmount exceeds the remaining escrow.",
  request: { params: IdParam, body: body(s.OfferBody) },
  responses: { 200: json(s.OfferResult, "Offered"), ...txErrors },
});

export const offers = createRoute({
  method: "get", path: "/missions/{id}/settlement", operationId: "getSettlementOffers", tags, ...write,
  summary: "The open settlement offers (parties only)",
  request: { params: IdParam },
  responses: { 200: json(s.Offers, "Open offers, at most one per party"), ...errorResponses(401, 403, 404, 429, 503) },
});

export const withdraw = createRoute({
  method: "delete", path: "/missions/{id}/settlement", operationId: "withdrawSettlement", tags, ...write,
  summary: "Withdraw one's own settlement offer",
  description: "409 NO_OFFER when the caller has no open offer.",
  request: { params: IdParam },
  responses: { 200: json(s.Withdrawn, "Withdrawn"), ...txErrors },
});

export const accept = createRoute({
  method: "post", path: "/missions/{id}/settlement/accept", operationId: "acceptSettlement", tags, ...write,
  summary: "Accept the other party's settlement offer: settles at once",
  description:
    "performerAmount must echo the other party's current offer (409 OFFER_CHANGED otherwise, nothing sent; 409 NO_OFFER without one). " +
    "The performer's part is settled as on approval, the poster gets the rest; the mission becomes Completed (Cancelled when performerAmount is 0). " +
    "Inside a dispute the dispute becomes Finalized with outcome Split, both DDRs go back and an assigned resolver is paid from the resolver pool.",
  request: { params: IdParam, body: body(s.AcceptBody) },
  responses: { 200: json(s.Settled, "Settled"), ...txErrors },
});

export const release = createRoute({
  method: "post", path: "/missions/{id}/release", operationId: "releaseMissionPart", tags, ...write,
  summary: "Release part of the escrow to the performer now (poster; Accepted or Submitted)",
  description: "Settled as on approval. Releasing the whole remainder completes the mission.",
  request: { params: IdParam, body: body(s.PartialBody) },
  responses: { 200: json(s.Released, "Released"), ...txErrors },
});

export const refund = createRoute({
  method: "post", path: "/missions/{id}/refund", operationId: "refundMissionPart", tags, ...write,
  summary: "Refund part of the escrow to the poster (performer; Accepted or Submitted)",
  description: "Refunding the whole remainder cancels the mission.",
  request: { params: IdParam, body: body(s.PartialBody) },
  responses: { 200: json(s.Refunded, "Refunded"), ...txErrors },
});
