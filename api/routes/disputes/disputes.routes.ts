import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { bearer, errorResponses, optionalBearer, publicAccess } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import * as s from "./disputes.schemas.ts";

const tags = ["Disputes"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const write = { security: bearer, middleware: requireUser() };
const txErrors = errorResponses(400, 401, 403, 404, 409, 422, 429, 503);
const reads = errorResponses(400, 404, 429, 503);
const list = <P extends string, Q extends NonNullable<RouteConfig["request"]>>(operationId: string, path: P, summary: string, request: Q) =>
  createRoute({ method: "get" as const, path, operationId, security: publicAccess, tags, summary, request, responses: { 200: json(s.DisputeList, "Disputes, newest first (at most 200)"), ...reads } });

export const listAll = createRoute({
  method: "get", path: "/resolver/disputes", operationId: "listDisputes", security: optionalBearer, tags, summary: "List disputes (filters: state, outcome, role of the signed-in user)",
  request: { query: s.ListQuery },
  responses: { 200: json(s.DisputeList, "Disputes, newest first (at most 200)"), ...errorResponses(400, 401, 429, 503) },
});
export const get = createRoute({
  method: "get", path: "/resolver/disputes/{id}", operationId: "getDispute", security: publicAccess, tags, summary: "Dispute detail", request: { params: s.IdParam },
  responses: { 200: json(s.DisputeDetail, "The dispute"), ...reads },
});
export const byMission = list("listMissionDisputes", "/resolver/disputes/mission/{missionId}", "Disputes of a mission", { params: s.MissionParam });
export const byUser = list("listUserDisputes", "/resolver/disputes/user/{userId}", "Disputes a user takes part in (optionally by role)", { params: s.UserParam, query: s.RoleQuery });
export const queue = list("listDisputeQueue", "/resolver/queue", "Pending disputes awaiting a resolver", {});
export const resolverQueue = list("listResolverQueue", "/resolver/queue/resolver/{resolverId}", "Investigating disputes assigned to a resolver", { params: s.ResolverParam });
export const stats = createRoute({
  method: "get", path: "/resolver/stats/{userId}", operationId: "getUserDisputeStats", security: publicAccess, tags, summary: "Dispute statistics of a user", request: { params: s.UserParam },
  responses: { 200: json(s.Stats, "Statistics"), ...reads },
});

export const uploadEvidence = createRoute({
  method: "post", path: "/resolver/disputes/{id}/evidence", operationId: "uploadEvidence", tags, summary: "Upload evidence (the party of that side; Pending or Investigating)",
  security: bearer, middleware: [requireUser()] as const, // + the size limit, in front of every body reader (disputes.paths.ts)
  request: { params: s.IdParam, body: { required: true, content: { "multipart/form-data": { schema: s.EvidenceForm } } } },
  responses: { 200: json(s.EvidenceResult, "Stored and recorded on-chain"), ...txErrors, ...errorResponses(413, 415) },
});
export const readEvidence = createRoute({
  method: "get", path: "/resolver/disputes/{id}/evidence", operationId: "downloadEvidence", tags, summary: "Download a side's current evidence (parties, the resolver, appeals resolvers)",
  security: bearer, middleware: requireUser(), request: { params: s.IdParam, query: s.SideQuery },
  responses: {
    200: { description: "The file, with its sniffed Content-Type and X-Evidence-Hash", content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } },
    ...errorResponses(400, 401, 403, 404, 429),
  },
});

const action = <P extends string>(operationId: string, path: P, summary: string) =>
  createRoute({
    method: "post" as const, path, operationId, tags, summary, ...write,
    request: { params: s.IdParam },
    responses: { 200: json(s.ActionResult, "Done (mined and indexed)"), ...txErrors },
  });
const decision = <P extends string>(operationId: string, path: P, summary: string) =>
  createRoute({
    method: "post" as const, path, operationId, tags, summary, ...write,
    request: { params: s.IdParam, body: { required: true, content: { "application/json": { schema: s.DecisionBody } } } },
    responses: { 200: json(s.ActionResult, "Done (mined and indexed)"), ...txErrors },
  });
export const take = action("takeDispute", "/resolver/disputes/{id}/take", "Take a Pending dispute (RESOLVER_ROLE; granted first at level >= 11)");
export const resolve = decision("resolveDispute", "/resolver/disputes/{id}/resolve", "Decide (the assigned resolver, before the resolution deadline)");
export const appeal = action("appealDispute", "/resolver/disputes/{id}/appeal", "Appeal a Resolved dispute (a party; pays the LPP)");
export const decide = decision("decideAppeal", "/resolver/disputes/{id}/appeal/decide", "Decide an appeal (APPEALS_ROLE; final, pays out)");
export const finalize = action("finalizeDispute", "/resolver/disputes/{id}/finalize", "Finalize after a deadline (anyone signed in)");
export const release = action("releaseDispute", "/resolver/disputes/{id}/release", "Return to the queue after the resolver's deadline (anyone signed in)");
