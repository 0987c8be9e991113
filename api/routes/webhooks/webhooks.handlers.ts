import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { AppError } from "../../lib/errors.ts";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./webhooks.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: Context<AppEnv>) => c.get("deps").services.webhooks;
const me = (c: Context<AppEnv>) => {
  const user = c.get("user");
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first"); // requireUser already refused it
  return user;
};

export const register: H<typeof r.register> = async (c) => c.json(await svc(c).register(me(c), c.req.valid("json")), 201);
export const list: H<typeof r.list> = async (c) => c.json(await svc(c).list(me(c)), 200);
export const deliveries: H<typeof r.deliveries> = async (c) => c.json(await svc(c).deliveries(me(c), c.req.valid("param").id), 200);
export const remove: H<typeof r.remove> = async (c) => c.json(await svc(c).remove(me(c), c.req.valid("param").id), 200);
export const rotate: H<typeof r.rotate> = async (c) => c.json(await svc(c).rotateSecret(me(c), c.req.valid("param").id), 200);
