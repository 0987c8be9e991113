import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Address } from "viem";
import type { AppEnv } from "../../lib/types.ts";
import { community, inviteToGuild } from "../../services/community.ts";
import type * as r from "./guilds.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => community(c.get("deps")).guilds;
const ok = (c: { json: (b: unknown, s: 200) => Response }, body: unknown) => c.json(body, 200) as never;

export const list: H<typeof r.list> = async (c) => ok(c, await svc(c).list(c.req.valid("query")));
export const get: H<typeof r.get> = async (c) => ok(c, await svc(c).get(c.req.valid("param").id, c.get("user")));
export const members: H<typeof r.members> = async (c) => ok(c, await svc(c).members(c.req.valid("param").id));
export const board: H<typeof r.board> = async (c) =>
  ok(c, await svc(c).board(c.req.valid("param").id, c.get("user")?.evmAddress as Address | undefined));
export const join: H<typeof r.join> = async (c) => ok(c, await svc(c).join(c.get("user")!, c.req.valid("param").id));
export const leave: H<typeof r.leave> = async (c) => ok(c, await svc(c).leave(c.get("user")!, c.req.valid("param").id));
export const publish: H<typeof r.publish> = async (c) =>
  ok(c, await svc(c).publish(c.get("user")!, c.req.valid("param").id, c.req.valid("json")));
export const invite: H<typeof r.invite> = async (c) =>
  ok(c, await inviteToGuild(community(c.get("deps")), c.get("user")!, c.req.valid("param").id, c.req.valid("json").address));
