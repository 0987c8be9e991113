import type { Address } from "viem";
import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./guilds.routes.ts";

const community = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.community;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => community(c).guilds;

export const list: AppRouteHandler<typeof r.list> = async (c) => c.json(await svc(c).list(c.req.valid("query")), 200);
export const get: AppRouteHandler<typeof r.get> = async (c) => c.json(await svc(c).get(c.req.valid("param").id, c.get("user")), 200);
export const members: AppRouteHandler<typeof r.members> = async (c) => c.json(await svc(c).members(c.req.valid("param").id, c.get("user")?.evmAddress), 200);
export const board: AppRouteHandler<typeof r.board> = async (c) =>
  c.json(await svc(c).board(c.req.valid("param").id, c.get("user")?.evmAddress as Address | undefined), 200);
export const join: AppRouteHandler<typeof r.join> = async (c) => c.json(await svc(c).join(c.get("user")!, c.req.valid("param").id), 200);
export const leave: AppRouteHandler<typeof r.leave> = async (c) => c.json(await svc(c).leave(c.get("user")!, c.req.valid("param").id), 200);
export const publish: AppRouteHandler<typeof r.publish> = async (c) =>
  c.json(await svc(c).publish(c.get("user")!, c.req.valid("param").id, c.req.valid("json")), 200);
export const invite: AppRouteHandler<typeof r.invite> = async (c) =>
  c.json(await community(c).invite(c.get("user")!, c.req.valid("param").id, c.req.valid("json").address), 200);
export const create: AppRouteHandler<typeof r.create> = async (c) => c.json(await svc(c).create(c.get("user")!, c.req.valid("json")), 201);
export const setRoles: AppRouteHandler<typeof r.setRoles> = async (c) => {
  const { id, userId } = c.req.valid("param");
  return c.json(await svc(c).setRoles(c.get("user")!, id, userId, c.req.valid("json")), 200);
};
