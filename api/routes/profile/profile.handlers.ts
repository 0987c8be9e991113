import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import { profileServices } from "../../services/profile/index.ts";
import type * as r from "./profile.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type C = { get: (k: "deps") => AppEnv["Variables"]["deps"]; json: (b: unknown, s: 200 | 201) => Response };
const svc = (c: C) => profileServices(c.get("deps"));
// Handlers return plain objects; the response schemas document them (the cast keeps handlers short).
const ok = (c: C, body: unknown, status: 200 | 201 = 200) => c.json(body, status) as never;
const origin = (url: string) => new URL(url).origin;

export const me: H<typeof r.me> = async (c) => ok(c, await svc(c).users.me(c.get("user")!));
export const patchMe: H<typeof r.patchMe> = async (c) => ok(c, await svc(c).users.patch(c.get("user")!, c.req.valid("json")));
export const linkMessage: H<typeof r.linkMessage> = async (c) =>
  ok(c, { message: svc(c).users.linkMessage(c.get("user")!, c.req.valid("query").solanaAddress) });
export const linkSolana: H<typeof r.linkSolana> = async (c) => ok(c, await svc(c).users.linkSolana(c.get("user")!, c.req.valid("json")));
export const getUser: H<typeof r.getUser> = async (c) => ok(c, await svc(c).users.get(c.req.valid("param").id));
export const userStats: H<typeof r.userStats> = async (c) => ok(c, await svc(c).users.stats(c.req.valid("param").id));
export const userRatings: H<typeof r.userRatings> = async (c) => ok(c, await svc(c).users.ratings(c.req.valid("param").id));

export const postRating: H<typeof r.postRating> = async (c) => {
  const { missionId, ...rating } = c.req.valid("json");
  return ok(c, await svc(c).ratings.rate(c.get("user")!, missionId, rating, origin(c.req.url)), 201);
};
export const rateMission: H<typeof r.rateMission> = async (c) =>
  ok(c, await svc(c).ratings.rate(c.get("user")!, c.req.valid("param").missionId, c.req.valid("json"), origin(c.req.url)), 201);
export const missionRatings: H<typeof r.missionRatings> = async (c) => ok(c, await svc(c).ratings.ofMission(c.req.valid("param").missionId));
export const ratingStats: H<typeof r.ratingStats> = async (c) => ok(c, await svc(c).ratings.userStats(c.req.valid("param").userId));
export const verifyRating: H<typeof r.verifyRating> = async (c) => ok(c, await svc(c).ratings.verify(c.req.valid("param").id, origin(c.req.url)));

export const xpMe: H<typeof r.xpMe> = async (c) => ok(c, await svc(c).xp.me(c.get("user")!));
export const refreshBuilder: H<typeof r.refreshBuilder> = async (c) => ok(c, await svc(c).xp.refreshBuilderScore(c.get("user")!));
export const leaderboard: H<typeof r.leaderboard> = async (c) => {
  const q = c.req.valid("query");
  return ok(c, await svc(c).xp.leaderboard(q.limit, q.type));
};
export const buildersLeaderboard: H<typeof r.buildersLeaderboard> = async (c) =>
  ok(c, await svc(c).xp.leaderboard(c.req.valid("query").limit, "builders"));
export const xpOf: H<typeof r.xpOf> = async (c) => ok(c, await svc(c).xp.summary(c.req.valid("param").userId));
export const ledger: H<typeof r.ledger> = async (c) => ok(c, await svc(c).xp.ledger(c.req.valid("param").userId, c.req.valid("query").limit));

export const achievements: H<typeof r.achievements> = async (c) => ok(c, await svc(c).nft.definitions());
export const nftsOf: H<typeof r.nftsOf> = async (c) => ok(c, await svc(c).nft.of(c.req.valid("param").userId));
export const achievementsOf: H<typeof r.achievementsOf> = async (c) => ok(c, await svc(c).nft.of(c.req.valid("param").userId, true));
export const collectiblesOf: H<typeof r.collectiblesOf> = async (c) => ok(c, await svc(c).nft.of(c.req.valid("param").userId, false));
