import type { AppRouteHandler } from "../../app-types.ts";
import type * as r from "./referrals.routes.ts";

export const refer: AppRouteHandler<typeof r.refer> = async (c) =>
  c.json(await c.get("deps").services.referrals.record(c.get("user")!, c.req.valid("json").referrer), 201);
