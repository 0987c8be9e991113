import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./profile.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type C = { get: (k: "deps") => AppEnv["Variables"]["deps"]; json: (b: unknown, s: 200 | 201) => Response };
const svc = (c: C) => c.get("deps").services.profile;
const origin = (url: string) => new URL(url).origin;
/** The caller's address on a public route (a signed-in caller may see more of others' profiles). */
const viewer = (c: { get: (k: "user") => AppEnv["Variables"]["user"] }) => c.get("user")?.evmAddress;

export const me: H<typeof r.me> = async (c) => c.json(await svc(c).users.me(c.get("user")!), 200);
export const patchMe: H<typeof r.patchMe> = async (c) => c.json(await svc(c).users.patch(c.get("user")!, c.req.valid("json")), 200);
export const linkMessage: H<typeof r.linkMessage> = async (c) =>
  c.json({ message: svc(c).users.linkMessage(c.get("user")!, c.req.valid("query").solanaAddress) }, 200);
export const linkSolana: H<typeof r.linkSolana> = async (c) => c.json(await svc(c).users.linkSolana(c.get("user")!, c.req.valid("json")), 200);
export const getUser: H<typeof r.getUser> = async (c) => c.json(await svc(c).users.get(c.req.valid("param").id, viewer(c)), 200);
export const userStats: H<typeof r.userStats> = async (c) => c.json(await svc(c).users.stats(c.req.valid("param").id, viewer(c)), 200);
export const userRatings: H<typeof r.userRatings> = async (c) => c.json(await svc(c).users.ratings(c.req.valid("param").id, viewer(c)), 200);

export const postRating: H<typeof r.postRating> = async (c) => {
  const { missionId, ...rating } = c.req.valid("json");
  return c.json(await svc(c).ratings.rate(c.get("user")!, missionId, rating, origin(c.req.url)), 201);
};
export const rateMission: H<typeof r.rateMission> = async (c) =>
  c.json(await svc(c).ratings.rate(c.get("user")!, c.req.valid("param").missionId, c.req.valid("json"), origin(c.req.url)), 201);
export const missionRatings: H<typeof r.missionRatings> = async (c) => c.json(await svc(c).ratings.ofMission(c.req.valid("param").missionId, viewer(c)), 200);
export const ratingStats: H<typeof r.ratingStats> = async (c) => c.json(await svc(c).ratings.userStats(c.req.valid("param").userId, viewer(c)), 200);
export const verifyRating: H<typeof r.verifyRating> = async (c) => c.json(await svc(c).ratings.verify(c.req.valid("param").id, origin(c.req.url)), 200);

export const xpMe: H<typeof r.xpMe> = async (c) => c.json(await svc(c).xp.me(c.get("user")!), 200);
export const refreshBuilder: H<typeof r.refreshBuilder> = async (c) => c.json(await svc(c).xp.refreshBuilderScore(c.get("user")!), 200);
export const leaderboard: H<typeof r.leaderboard> = async (c) => {
  const q = c.req.valid("query");
  return c.json(await svc(c).xp.leaderboard(q.limit, q.type, viewer(c)), 200);
};
export const buildersLeaderboard: H<typeof r.buildersLeaderboard> = async (c) =>
  c.json(await svc(c).xp.leaderboard(c.req.valid("query").limit, "builders", viewer(c)), 200);
export const xpOf: H<typeof r.xpOf> = async (c) => c.json(await svc(c).xp.summary(c.req.valid("param").userId), 200);
export const ledger: H<typeof r.ledger> = async (c) => c.json(await svc(c).xp.ledger(c.req.valid("param").userId, c.req.valid("query").limit), 200);

export const achievements: H<typeof r.achievements> = async (c) => c.json(await svc(c).nft.definitions(), 200);
export const nftsOf: H<typeof r.nftsOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId), 200);
export const achievementsOf: H<typeof r.achievementsOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId, true), 200);
export const collectiblesOf: H<typeof r.collectiblesOf> = async (c) => c.json(await svc(c).nft.of(c.req.valid("param").userId, false), 200);
