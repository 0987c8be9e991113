import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./money.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.missions;

export const offer: H<typeof r.offer> = async (c) =>
  c.json({ data: await svc(c).offerSettlement(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const offers: H<typeof r.offers> = async (c) =>
  c.json({ data: await svc(c).settlementOffers(c.get("user")!, c.req.valid("param").id) }, 200);

export const withdraw: H<typeof r.withdraw> = async (c) =>
  c.json({ data: await svc(c).withdrawSettlement(c.get("user")!, c.req.valid("param").id) }, 200);

export const accept: H<typeof r.accept> = async (c) =>
  c.json({ data: await svc(c).acceptSettlement(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const release: H<typeof r.release> = async (c) =>
  c.json({ data: await svc(c).release(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const refund: H<typeof r.refund> = async (c) =>
  c.json({ data: await svc(c).refund(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);
