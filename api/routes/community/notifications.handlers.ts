import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./notifications.routes.ts";

type C = Parameters<AppRouteHandler<typeof r.list>>[0];
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.community.notifications;
const me = (c: C | { get: (k: "user") => AppEnv["Variables"]["user"] }) => (c as { get: (k: "user") => AppEnv["Variables"]["user"] }).get("user")!;

export const list: AppRouteHandler<typeof r.list> = async (c) => c.json(await svc(c).list(me(c).evmAddress, c.req.valid("query")), 200);
export const read: AppRouteHandler<typeof r.read> = async (c) => c.json(await svc(c).markRead(me(c).evmAddress, c.req.valid("param").id), 200);
export const readAll: AppRouteHandler<typeof r.readAll> = async (c) => c.json(await svc(c).markAllRead(me(c).evmAddress), 200);
export const unreadCount: AppRouteHandler<typeof r.unreadCount> = async (c) => c.json(await svc(c).unreadCount(me(c).evmAddress), 200);
export const readPreferences: AppRouteHandler<typeof r.readPreferences> = async (c) => c.json(await svc(c).preferencesOf(me(c).evmAddress), 200);
export const preferences: AppRouteHandler<typeof r.preferences> = async (c) =>
  c.json(await svc(c).updatePreferences(me(c).evmAddress, c.req.valid("json")), 200);
export const registerDevice: AppRouteHandler<typeof r.registerDevice> = async (c) =>
  c.json(await svc(c).registerDevice(me(c).id, c.req.valid("json")), 200);
