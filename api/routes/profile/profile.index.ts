// Users, ratings, XP, NFTs. Fixed paths before parameterised ones: /users/me before
// /users/{id}, /xp/me and /xp/leaderboard before /xp/{userId}, /nft/achievements before /nft/{userId}.
import { createRouter } from "../create-app.ts";
import * as h from "./profile.handlers.ts";
import * as r from "./profile.routes.ts";

export const profileRouter = () =>
  createRouter()
    .openapi(r.me, h.me)
    .openapi(r.patchMe, h.patchMe)
    .openapi(r.linkMessage, h.linkMessage)
    .openapi(r.linkSolana, h.linkSolana)
    .openapi(r.getUser, h.getUser)
    .openapi(r.userStats, h.userStats)
    .openapi(r.userRatings, h.userRatings)
    .openapi(r.postRating, h.postRating)
    .openapi(r.rateMission, h.rateMission)
    .openapi(r.missionRatings, h.missionRatings)
    .openapi(r.ratingStats, h.ratingStats)
    .openapi(r.verifyRating, h.verifyRating)
    .openapi(r.xpMe, h.xpMe)
    .openapi(r.refreshBuilder, h.refreshBuilder)
    .openapi(r.leaderboard, h.leaderboard)
    .openapi(r.buildersLeaderboard, h.buildersLeaderboard)
    .openapi(r.xpOf, h.xpOf)
    .openapi(r.ledger, h.ledger)
    .openapi(r.achievements, h.achievements)
    .openapi(r.nftsOf, h.nftsOf)
    .openapi(r.achievementsOf, h.achievementsOf)
    .openapi(r.collectiblesOf, h.collectiblesOf);
