import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./vault.routes.ts";

type Ctx = { get: ((k: "deps") => AppEnv["Variables"]["deps"]) & ((k: "user") => AppEnv["Variables"]["user"]) };
const svc = (c: unknown) => (c as Ctx).get("deps").services.vault;
const me = (c: unknown) => (c as Ctx).get("user")!;

export const initialize: AppRouteHandler<typeof r.initialize> = async (c) => c.json(await svc(c).initialize(me(c)), 200);
export const sync: AppRouteHandler<typeof r.sync> = async (c) => c.json(await svc(c).sync(me(c)), 200);
export const exportData: AppRouteHandler<typeof r.exportData> = async (c) => c.json(await svc(c).export(me(c)), 200);
export const remove: AppRouteHandler<typeof r.remove> = async (c) => c.json(await svc(c).delete(me(c), c.req.valid("json").confirmation), 200);
export const getPermissions: AppRouteHandler<typeof r.getPermissions> = async (c) => c.json(await svc(c).permissions(me(c)), 200);
export const patchPermissions: AppRouteHandler<typeof r.patchPermissions> = async (c) =>
  c.json(await svc(c).updatePermissions(me(c), c.req.valid("json")), 200);
