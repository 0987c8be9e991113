import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./vault.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type Ctx = { get: ((k: "deps") => AppEnv["Variables"]["deps"]) & ((k: "user") => AppEnv["Variables"]["user"]) };
const svc = (c: unknown) => (c as Ctx).get("deps").services.vault;
const me = (c: unknown) => (c as Ctx).get("user")!;

export const initialize: H<typeof r.initialize> = async (c) => c.json(await svc(c).initialize(me(c)), 200);
export const sync: H<typeof r.sync> = async (c) => c.json(await svc(c).sync(me(c)), 200);
export const exportData: H<typeof r.exportData> = async (c) => c.json(await svc(c).export(me(c)), 200);
export const remove: H<typeof r.remove> = async (c) => c.json(await svc(c).delete(me(c), c.req.valid("json").confirmation), 200);
export const getPermissions: H<typeof r.getPermissions> = async (c) => c.json(await svc(c).permissions(me(c)), 200);
export const patchPermissions: H<typeof r.patchPermissions> = async (c) =>
  c.json(await svc(c).updatePermissions(me(c), c.req.valid("json")), 200);
