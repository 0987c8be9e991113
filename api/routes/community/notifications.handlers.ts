import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import { community } from "../../services/community.ts";
import type * as r from "./notifications.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type C = Parameters<H<typeof r.list>>[0];
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => community(c.get("deps")).notifications;
const me = (c: C | { get: (k: "user") => AppEnv["Variables"]["user"] }) => (c as { get: (k: "user") => AppEnv["Variables"]["user"] }).get("user")!;
const ok = (c: { json: (b: unknown, s: 200) => Response }, body: unknown) => c.json(body, 200) as never;

export const list: H<typeof r.list> = async (c) => ok(c, await svc(c).list(me(c).evmAddress, c.req.valid("query")));
export const read: H<typeof r.read> = async (c) => ok(c, await svc(c).markRead(me(c).evmAddress, c.req.valid("param").id));
export const readAll: H<typeof r.readAll> = async (c) => ok(c, await svc(c).markAllRead(me(c).evmAddress));
export const unreadCount: H<typeof r.unreadCount> = async (c) => ok(c, await svc(c).unreadCount(me(c).evmAddress));
export const preferences: H<typeof r.preferences> = async (c) =>
  ok(c, await svc(c).updatePreferences(me(c).evmAddress, c.req.valid("json")));
export const registerDevice: H<typeof r.registerDevice> = async (c) =>
  ok(c, await svc(c).registerDevice(me(c).id, c.req.valid("json")));
