import type { Context } from "hono";
import { AppError } from "../../lib/errors.ts";
import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./webhooks.routes.ts";

const svc = (c: Context<AppEnv>) => c.get("deps").services.webhooks;
const me = (c: Context<AppEnv>) => {
  const user = c.get("user");
  if (!user) throw new AppError("UNAUTHORIZED", "Sign in first"); // requireUser already refused it
  return user;
};

export const register: AppRouteHandler<typeof r.register> = async (c) => c.json(await svc(c).register(me(c), c.req.valid("json")), 201);
export const list: AppRouteHandler<typeof r.list> = async (c) => c.json(await svc(c).list(me(c)), 200);
export const deliveries: AppRouteHandler<typeof r.deliveries> = async (c) => c.json(await svc(c).deliveries(me(c), c.req.valid("param").id), 200);
export const remove: AppRouteHandler<typeof r.remove> = async (c) => c.json(await svc(c).remove(me(c), c.req.valid("param").id), 200);
export const rotate: AppRouteHandler<typeof r.rotate> = async (c) => c.json(await svc(c).rotateSecret(me(c), c.req.valid("param").id), 200);
