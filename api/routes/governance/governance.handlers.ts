import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./governance.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.governance;

export const create: H<typeof r.create> = async (c) => c.json(await svc(c).create(c.get("user")!, c.req.valid("json")), 201);
export const list: H<typeof r.list> = async (c) => c.json(await svc(c).list(c.req.valid("query").limit), 200);
export const get: H<typeof r.get> = async (c) => c.json(await svc(c).get(c.req.valid("param").id), 200);
export const vote: H<typeof r.vote> = async (c) =>
  c.json(await svc(c).vote(c.get("user")!, c.req.valid("param").id, c.req.valid("json")), 201);
