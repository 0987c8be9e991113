import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, optionalBearer } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import * as s from "./discovery.schemas.ts";

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const authed = { security: bearer, middleware: requireUser() };

export const feed = createRoute({
  method: "get", path: "/feed", operationId: "getFeed", tags: ["Feed"], ...authed,
  summary: "Missions ranked for the signed-in user",
  description: "Open, unexpired missions. finalScore = 0.25 reward + 0.20 urgency + 0.20 distance + 0.15 XP match + 0.10 poster reputation + 0.10 category preference, x1.5 for the user's guilds. Ineligible missions (guild missions of other guilds, board minGuildXP above the user's guild XP) rank after all eligible ones. Every matching mission is scored; pages are exact at any depth.",
  request: { query: s.FeedQuery },
  responses: { 200: json(s.FeedResponse, "The ranked feed"), ...errorResponses(400, 401, 429, 503) },
});

export const view = createRoute({
  method: "post", path: "/feed/views", operationId: "recordFeedView", tags: ["Feed"], ...authed,
  summary: "Report viewing time of a mission (feeds the category preference)",
  request: { body: { required: true, content: { "application/json": { schema: s.ViewBody } } } },
  responses: { 201: json(z.object({ recorded: z.boolean() }), "Recorded"), ...errorResponses(400, 401, 404, 429) },
});

export const search = createRoute({
  method: "get", path: "/feed/search", operationId: "searchMissions", security: optionalBearer, tags: ["Feed"],
  summary: "Full-text search over titles, descriptions and tags",
  request: { query: s.SearchQuery },
  responses: { 200: json(s.SearchResponse, "Matches, best first"), ...errorResponses(400, 429, 503) },
});

export const nearby = createRoute({
  method: "get", path: "/missions/nearby", operationId: "listNearbyMissions", security: optionalBearer, tags: ["Missions"],
  summary: "Open missions around a point, with map clusters",
  description: "Locations: exact (precision 0) for the poster and performer, otherwise the geohash-6 cell center (precision 2).",
  request: { query: s.NearbyQuery },
  responses: { 200: json(s.NearbyResponse, "Missions within the radius, nearest first"), ...errorResponses(400, 429, 503) },
});

export const verifyPresence = createRoute({
  method: "post", path: "/missions/{id}/verify-presence", operationId: "verifyPresence", tags: ["Missions"], ...authed,
  summary: "Check a GPS fix against the mission's geofence (+100 m grace); the performer or the poster only",
  request: { params: s.IdParam, body: { required: true, content: { "application/json": { schema: s.PresenceBody } } } },
  responses: { 200: json(s.PresenceResponse, "Result"), ...errorResponses(400, 401, 403, 404, 409, 429) },
});
