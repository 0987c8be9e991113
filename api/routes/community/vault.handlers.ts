import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import { vaultService } from "../../services/vault.service.ts";
import type * as r from "./vault.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type Ctx = { get: ((k: "deps") => AppEnv["Variables"]["deps"]) & ((k: "user") => AppEnv["Variables"]["user"]) };
const svc = (c: unknown) => vaultService((c as Ctx).get("deps"));
const me = (c: unknown) => (c as Ctx).get("user")!;
const ok = (c: { json: (b: unknown, s: 200) => Response }, body: unknown) => c.json(body, 200) as never;

export const initialize: H<typeof r.initialize> = async (c) => ok(c, await svc(c).initialize(me(c)));
export const sync: H<typeof r.sync> = async (c) => ok(c, await svc(c).sync(me(c)));
export const exportData: H<typeof r.exportData> = async (c) => ok(c, await svc(c).export(me(c)));
export const remove: H<typeof r.remove> = async (c) => ok(c, await svc(c).delete(me(c), c.req.valid("json").confirmation));
export const getPermissions: H<typeof r.getPermissions> = async (c) => ok(c, await svc(c).permissions(me(c)));
export const patchPermissions: H<typeof r.patchPermissions> = async (c) =>
  ok(c, await svc(c).updatePermissions(me(c), c.req.valid("json")));
