import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./notifications.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type C = Parameters<H<typeof r.list>>[0];
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.community.notifications;
const me = (c: C | { get: (k: "user") => AppEnv["Variables"]["user"] }) => (c as { get: (k: "user") => AppEnv["Variables"]["user"] }).get("user")!;

export const list: H<typeof r.list> = async (c) => c.json(await svc(c).list(me(c).evmAddress, c.req.valid("query")), 200);
export const read: H<typeof r.read> = async (c) => c.json(await svc(c).markRead(me(c).evmAddress, c.req.valid("param").id), 200);
export const readAll: H<typeof r.readAll> = async (c) => c.json(await svc(c).markAllRead(me(c).evmAddress), 200);
export const unreadCount: H<typeof r.unreadCount> = async (c) => c.json(await svc(c).unreadCount(me(c).evmAddress), 200);
export const readPreferences: H<typeof r.readPreferences> = async (c) => c.json(await svc(c).preferencesOf(me(c).evmAddress), 200);
export const preferences: H<typeof r.preferences> = async (c) =>
  c.json(await svc(c).updatePreferences(me(c).evmAddress, c.req.valid("json")), 200);
export const registerDevice: H<typeof r.registerDevice> = async (c) =>
  c.json(await svc(c).registerDevice(me(c).id, c.req.valid("json")), 200);
