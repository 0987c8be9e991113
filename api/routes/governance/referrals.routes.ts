import { createRoute, z } from "@hono/zod-openapi";
import { AddressSchema, bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";

const Referral = z
  .object({
    referee: z.string().openapi({ description: "The caller's address" }),
    referrer: z.string(),
    transactionHash: z.string().openapi({ description: "ReputationRegistry.recordReferral, sent by the service" }),
  })
  .openapi("Referral");

export const refer = createRoute({
  method: "post", path: "/users/me/referral", operationId: "recordReferral", tags: ["Users"], security: bearer, middleware: requireUser(),
  summary: "Record who referred the caller, once (409 ALREADY_REFERRED); the referrer must be another user of the service (else 400). The referrer earns 20 XP (source referral) when the caller first completes a mission as poster or performer",
  request: { body: { required: true, content: { "application/json": { schema: z.object({ referrer: AddressSchema }).openapi("ReferralBody") } } } },
  responses: {
    201: { description: "Recorded on chain", content: { "application/json": { schema: Referral } } },
    ...errorResponses(400, 401, 409, 429, 503),
  },
});
