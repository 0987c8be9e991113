// Users, Ratings, XP, NFT routes. Fixed paths are registered before parameterised ones in
// profile.index.ts (/users/me, /xp/me, /xp/leaderboard, /nft/achievements).
import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, publicAccess } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import * as s from "./profile.schemas.ts";

const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T extends z.ZodTypeAny>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };
const read = errorResponses(400, 404, 429, 503);

// ---- Users
export const me = createRoute({
  method: "get", path: "/users/me", operationId: "getMe", tags: ["Users"], summary: "The signed-in user", ...auth,
  responses: { 200: json(s.Me, "The user and what their level unlocks"), ...errorResponses(401, 429, 503) },
});
export const patchMe = createRoute({
  method: "patch", path: "/users/me", operationId: "updateMe", tags: ["Users"], ...auth,
  summary: "Edit the profile: displayName 1..50 (trimmed), bio <= 500, avatar an http(s) URL or \"\"; returns the user",
  request: { body: body(s.PatchMeBody) },
  responses: { 200: json(s.User, "The updated user"), ...errorResponses(400, 401, 429) },
});
export const linkMessage = createRoute({
  method: "get", path: "/users/me/link-solana/message", operationId: "getSolanaLinkMessage", tags: ["Users"], ...auth,
  summary: "The exact message the Solana key must sign (ed25519) to link it",
  request: { query: s.LinkMessageQuery },
  responses: { 200: json(z.object({ message: z.string() }), "The message"), ...errorResponses(400, 401, 429) },
});
export const linkSolana = createRoute({
  method: "post", path: "/users/me/link-solana", operationId: "linkSolana", tags: ["Users"], ...auth,
  summary: "Link a Solana address: signature = ed25519 signature by that key of GET /users/me/link-solana/message; returns the user",
  request: { body: body(s.LinkSolanaBody) },
  responses: { 200: json(s.User, "The user with solanaAddress"), ...errorResponses(400, 401, 409, 429) },
});
export const getUser = createRoute({
  method: "get", path: "/users/{id}", operationId: "getUser", security: publicAccess, tags: ["Users"], summary: "A user's public profile (id = API user id or address)",
  request: { params: s.IdParam },
  responses: { 200: json(s.User, "The user"), ...read },
});
export const userStats = createRoute({
  method: "get", path: "/users/{id}/stats", operationId: "getUserStats", security: publicAccess, tags: ["Users"], summary: "User stats (from indexed chain data)",
  request: { params: s.IdParam },
  responses: { 200: json(s.UserStats, "Stats"), ...read },
});
export const userRatings = createRoute({
  method: "get", path: "/users/{id}/ratings", operationId: "listUserRatings", security: publicAccess, tags: ["Users"], summary: "Counted ratings the user received, newest first",
  request: { params: s.IdParam },
  responses: { 200: json(z.array(s.RatingProfile), "Ratings"), ...read },
});

// ---- Ratings
const rateErrors = errorResponses(400, 401, 403, 404, 409, 429, 503);
export const postRating = createRoute({
  method: "post", path: "/ratings", operationId: "createRating", tags: ["Ratings"], ...auth,
  summary: "Rate the other party of a completed mission (same as POST /ratings/mission/{missionId})",
  request: { body: body(s.PostRatingBody) },
  responses: { 201: json(s.RatingOnChain, "Attested on-chain (EAS, delegated, sponsored)"), ...rateErrors },
});
export const rateMission = createRoute({
  method: "post", path: "/ratings/mission/{missionId}", operationId: "rateMission", tags: ["Ratings"], ...auth,
  summary: "Rate the other party of a completed mission, once (409 ALREADY_RATED)",
  request: { params: s.MissionIdParam, body: body(s.RateBody) },
  responses: { 201: json(s.RatingOnChain, "Attested on-chain (EAS, delegated, sponsored)"), ...rateErrors },
});
export const missionRatings = createRoute({
  method: "get", path: "/ratings/mission/{missionId}", operationId: "listMissionRatings", security: publicAccess, tags: ["Ratings"], summary: "Counted ratings of a mission",
  request: { params: s.MissionIdParam },
  responses: { 200: json(z.array(s.RatingMission), "Ratings"), ...read },
});
export const ratingStats = createRoute({
  method: "get", path: "/ratings/user/{userId}/stats", operationId: "getRatingStats", security: publicAccess, tags: ["Ratings"], summary: "Rating stats of a user (counted ratings)",
  request: { params: s.UserIdParam },
  responses: { 200: json(s.RatingStats, "Stats"), ...read },
});
export const verifyRating = createRoute({
  method: "get", path: "/ratings/{id}/verify", operationId: "verifyRating", security: publicAccess, tags: ["Ratings"], summary: "Reads the attestation back from EAS on the chain",
  request: { params: s.RatingIdParam },
  responses: { 200: json(s.RatingVerify, "Verification"), ...read },
});

// ---- XP
export const xpMe = createRoute({
  method: "get", path: "/xp/me", operationId: "getMyXp", tags: ["XP"], summary: "The signed-in user's XP summary (+ builder-score status)", ...auth,
  responses: { 200: json(s.XpMe, "Summary"), ...errorResponses(401, 429, 503) },
});
export const refreshBuilder = createRoute({
  method: "post", path: "/xp/me/builder-score/refresh", operationId: "refreshBuilderScore", tags: ["XP"], ...auth,
  summary: "Fetch the caller's builder score from the provider (at most once a day) and put it on-chain",
  responses: { 200: json(s.BuilderRefresh, "Refresh result"), ...errorResponses(401, 429, 503) },
});
export const leaderboard = createRoute({
  method: "get", path: "/xp/leaderboard", operationId: "getLeaderboard", security: publicAccess, tags: ["XP"], summary: "Leaderboard by XP (type=builders: users with a builder score)",
  request: { query: s.LeaderboardQuery },
  responses: { 200: json(z.array(s.LeaderboardEntry), "Entries"), ...errorResponses(400, 429, 503) },
});
export const buildersLeaderboard = createRoute({
  method: "get", path: "/xp/leaderboard/builders", operationId: "getBuildersLeaderboard", security: publicAccess, tags: ["XP"], summary: "Leaderboard of users with a builder score",
  request: { query: s.BuildersQuery },
  responses: { 200: json(z.array(s.LeaderboardEntry), "Entries"), ...errorResponses(400, 429, 503) },
});
export const xpOf = createRoute({
  method: "get", path: "/xp/{userId}", operationId: "getXp", security: publicAccess, tags: ["XP"], summary: "XP summary",
  request: { params: s.UserIdParam },
  responses: { 200: json(s.XpSummary, "Summary"), ...read },
});
export const ledger = createRoute({
  method: "get", path: "/xp/{userId}/ledger", operationId: "getXpLedger", security: publicAccess, tags: ["XP"], summary: "XP ledger, newest first (limit default 50, max 500)",
  request: { params: s.UserIdParam, query: s.LedgerQuery },
  responses: { 200: json(z.array(s.LedgerEntry), "Entries"), ...read },
});

// ---- NFT
export const achievements = createRoute({
  method: "get", path: "/nft/achievements", operationId: "listAchievementDefinitions", security: publicAccess, tags: ["NFT"], summary: "All achievement definitions",
  responses: { 200: json(z.array(s.AchievementDefinition), "Definitions"), ...errorResponses(429, 503) },
});
export const nftsOf = createRoute({
  method: "get", path: "/nft/{userId}", operationId: "listNfts", security: publicAccess, tags: ["NFT"], summary: "All NFTs of a user",
  request: { params: s.UserIdParam },
  responses: { 200: json(z.array(s.Nft), "NFTs"), ...read },
});
export const achievementsOf = createRoute({
  method: "get", path: "/nft/{userId}/achievements", operationId: "listAchievements", security: publicAccess, tags: ["NFT"], summary: "Soulbound NFTs of a user",
  request: { params: s.UserIdParam },
  responses: { 200: json(z.array(s.Nft), "NFTs"), ...read },
});
export const collectiblesOf = createRoute({
  method: "get", path: "/nft/{userId}/collectibles", operationId: "listCollectibles", security: publicAccess, tags: ["NFT"], summary: "Tradable NFTs of a user",
  request: { params: s.UserIdParam },
  responses: { 200: json(z.array(s.Nft), "NFTs"), ...read },
});
