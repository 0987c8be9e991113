import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./money.routes.ts";

const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.missions;

export const offer: AppRouteHandler<typeof r.offer> = async (c) =>
  c.json({ data: await svc(c).offerSettlement(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const offers: AppRouteHandler<typeof r.offers> = async (c) =>
  c.json({ data: await svc(c).settlementOffers(c.get("user")!, c.req.valid("param").id) }, 200);

export const withdraw: AppRouteHandler<typeof r.withdraw> = async (c) =>
  c.json({ data: await svc(c).withdrawSettlement(c.get("user")!, c.req.valid("param").id) }, 200);

export const accept: AppRouteHandler<typeof r.accept> = async (c) =>
  c.json({ data: await svc(c).acceptSettlement(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const release: AppRouteHandler<typeof r.release> = async (c) =>
  c.json({ data: await svc(c).release(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const refund: AppRouteHandler<typeof r.refund> = async (c) =>
  c.json({ data: await svc(c).refund(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);
