import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./referrals.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;

export const refer: H<typeof r.refer> = async (c) =>
  c.json(await c.get("deps").services.referrals.record(c.get("user")!, c.req.valid("json").referrer), 201);
