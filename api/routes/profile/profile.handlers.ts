import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./profile.routes.ts";

type C = { get: (k: "deps") => AppEnv["Variables"]["deps"]; json: (b: unknown, s: 200 | 201) => Response };
const svc = (c: C) => c.get("deps").services.profile;
const origin = (url: string) => new URL(url).origin;
/** The caller's address on a public route (a signed-in caller may see more of others' profiles). */
const viewer = (c: { get: (k: "user") => AppEnv["Variables"]["user"] }) => c.get("user")?.evmAddress;

export const me: AppRouteHandler<typeof r.me> = async (c) => c.json(await svc(c).users.me(c.get("user")!), 200);
export const patchMe: AppRouteHandler<typeof r.patchMe> = async (c) => c.json(await svc(c).users.patch(c.get("user")!, c.req.valid("json")), 200);
export const linkMessage: AppRouteHandler<typeof r.linkMessage> = async (c) =>
  c.json({ message: svc(c).users.linkMessage(c.get("user")!, c.req.valid("query").solanaAddress) }, 200);
export const linkSolana: AppRouteHandler<typeof r.linkSolana> = async (c) => c.json(await svc(c).users.linkSolana(c.get("user")!, c.req.valid("json")), 200);
export const getUser: AppRouteHandler<typeof r.getUser> = async (c) => c.json(await svc(c).users.get(c.req.valid("param").id, viewer(c)), 200);
export const userStats: AppRouteHandler<typeof r.userStats> = async (c) => c.json(await svc(c).users.stats(c.req.valid("param").id, viewer(c)), 200);
export const userRatings: AppRouteHandler<typeof r.userRatings> = async (c) => c.json(await svc(c).users.ratings(c.req.valid("param").id, viewer(c)), 200);

export const postRating: AppRouteHandler<typeof r.postRating> = async (c) => {
  const { missionId, ...rating } = c.req.valid("json");
  return c.json(await svc(c).ratings.rate(c.get("user")!, missionId, rating, origin(c.req.url)), 201);
};
export const rateMission: AppRouteHandler<typeof r.rateMission> = async (c) =>
  c.json(await svc(c).ratings.rate(c.get("user")!, c.req.valid("param").missionId, c.req.valid("json"), origin(c.req.url)), 201);
export const missionRatings: AppRouteHandler<typeof r.missionRatings> = async (c) => c.json(await svc(c).ratings.ofMission(c.req.valid("param").missionId, viewer(c)), 200);
export const ratingStats: AppRouteHandler<typeof r.ratingStats> = async (c) => c.json(await svc(c).ratings.userStats(c.req.valid("param").userId, viewer(c)), 200);
export const verifyRating: AppRouteHandler<typeof r.verifyRating> = async (c) => c.json(await svc(c).ratings.verify(c.req.valid("param").id, origin(c.req.url)), 200);

export const xpMe: AppRouteHandler<typeof r.xpMe> = async (c) => c.json(await svc(c).xp.me(c.get("user")!), 200);
export const refreshBuilder: AppRouteHandler<typeof r.refreshBuilder> = async (c) => c.json(await svc(c).xp.refreshBuilderScore(c.get("user")!), 200);
export const leaderboard: AppRouteHandler<typeof r.leaderboard> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await svc(c).xp.leaderboard(q.limit, q.type, viewer(c)), 200);
};
export const buildersLeaderboard: AppRouteHandler<typeof r.buildersLeaderboard> = async (c) =>
  c.json(await svc(c).xp.leaderboard(c.req.valid("query").limit, "builders", viewer(c)), 200);
export const xpOf: AppRouteHandler<typeof r.xpOf> = async (c) => c.json(await svc(c).xp.summary(c.req.valid("param").userId), 200);
export const ledger: AppRouteHandler<typeof r.ledger> = async (c) => c.json(await svc(c).xp.ledger(c.req.valid("param").userId, c.req.valid("query").limit), 200);

export const achievements: AppRouteHandler<typeof r.achievements> = async (c) => c.json(await svc(c).nft.definitions(), 200);
export const nftsOf: AppRouteHandler<typeof r.nftsOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId), 200);
export const achievementsOf: AppRouteHandler<typeof r.achievementsOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId, true), 200);
export const collectiblesOf: AppRouteHandler<typeof r.collectiblesOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId, false), 200);
