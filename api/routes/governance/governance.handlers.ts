import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./governance.routes.ts";

const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.governance;

export const create: AppRouteHandler<typeof r.create> = async (c) => c.json(await svc(c).create(c.get("user")!, c.req.valid("json")), 201);
export const list: AppRouteHandler<typeof r.list> = async (c) => c.json(await svc(c).list(c.req.valid("query").limit), 200);
export const get: AppRouteHandler<typeof r.get> = async (c) => c.json(await svc(c).get(c.req.valid("param").id), 200);
export const vote: AppRouteHandler<typeof r.vote> = async (c) =>
  c.json(await svc(c).vote(c.get("user")!, c.req.valid("param").id, c.req.valid("json")), 201);
