import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, optionalBearer } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import * as s from "./missions.schemas.ts";

const tags = ["Missions"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});
const body = <T extends z.ZodTypeAny>(schema: T, required = true) => ({
  required,
  content: { "application/json": { schema } },
});
const write = { security: bearer, middleware: requireUser() };
const txErrors = errorResponses(400, 401, 403, 404, 409, 422, 429, 503);

export const list = createRoute({
  method: "get", path: "/missions", operationId: "listMissions", security: optionalBearer, tags, summary: "List missions",
  request: { query: s.ListQuery },
  responses: {
    200: json(z.object({ data: z.array(s.MissionList), meta: z.object({ skip: z.number(), take: z.number(), total: z.number() }) }), "A page of missions"),
    ...errorResponses(400, 429),
  },
});

export const get = createRoute({
  method: "get", path: "/missions/{id}", operationId: "getMission", security: optionalBearer, tags, summary: "Get a mission",
  request: { params: s.IdParam },
  responses: { 200: json(z.object({ data: s.Mission }), "The mission"), ...errorResponses(404, 429) },
});

export const create = createRoute({
  method: "post", path: "/missions", operationId: "createMission", tags, summary: "Create a mission (reward escrowed on-chain)", ...write,
  request: { body: body(s.CreateBody) },
  responses: {
    201: json(z.object({ data: s.Mission.partial().extend({ id: z.string(), onChainId: z.string(), escrowAddress: z.string(), transactionHash: z.string() }) }), "Created"),
    ...txErrors,
  },
});

export const patch = createRoute({
  method: "patch", path: "/missions/{id}", operationId: "updateMission", tags, summary: "Edit the off-chain details of an Open mission (poster only)", ...write,
  request: { params: s.IdParam, body: body(s.PatchBody) },
  responses: { 200: json(z.object({ data: s.Mission.extend({ transactionHash: z.string() }) }), "Updated"), ...txErrors },
});

export const accept = createRoute({
  method: "post", path: "/missions/{id}/accept", operationId: "acceptMission", tags, summary: "Accept an Open mission", ...write,
  request: { params: s.IdParam },
  responses: {
    200: json(z.object({ data: z.object({ success: z.boolean(), transactionHash: z.string(), mission: s.Mission }) }), "Accepted"),
    ...txErrors,
  },
});

export const submit = createRoute({
  method: "post", path: "/missions/{id}/submit", operationId: "submitMission", tags, summary: "Submit proof (performer only)", ...write,
  request: { params: s.IdParam, body: body(s.SubmitBody) },
  responses: {
    200: json(z.object({ data: z.object({ success: z.boolean(), transactionHash: z.string(), proofHash: z.string() }) }), "Submitted"),
    ...txErrors,
  },
});

export const approve = createRoute({
  method: "post", path: "/missions/{id}/approve", operationId: "approveMission", tags, summary: "Approve the proof and settle (poster only)", ...write,
  request: { params: s.IdParam, body: body(s.ApproveBody, false) },
  responses: {
    200: json(
      z.object({
        data: z.object({
          success: z.boolean(), transactionHash: z.string(), settlement: s.Settlement,
          rating: s.ApprovalRating.nullable().optional().openapi({ description: "With `rating` in the body: the recorded rating, or null if it could not be recorded (then `ratingError`; the mission is settled either way and POST /ratings/mission/{id} may be retried)" }),
          ratingError: z.object({ code: z.string(), message: z.string() }).optional(),
        }),
      }),
      "Settled",
    ),
    ...txErrors,
  },
});

export const cancel = createRoute({
  method: "post", path: "/missions/{id}/cancel", operationId: "cancelMission", tags, summary: "Cancel an Open mission (poster only)", ...write,
  request: { params: s.IdParam },
  responses: {
    200: json(z.object({ data: z.object({ success: z.boolean(), transactionHash: z.string(), refundAmount: z.string() }) }), "Cancelled"),
    ...txErrors,
  },
});

export const dispute = createRoute({
  method: "post", path: "/missions/{id}/dispute", operationId: "disputeMission", tags, summary: "Raise a dispute on a Submitted mission (either party)", ...write,
  request: { params: s.IdParam, body: body(s.DisputeBody) },
  responses: {
    200: json(z.object({ data: z.object({ success: z.boolean(), transactionHash: z.string(), disputeId: z.string(), onChainDisputeId: z.string() }) }), "Disputed"),
    ...txErrors,
  },
});
