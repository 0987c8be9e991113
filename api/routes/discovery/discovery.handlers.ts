import { parseAmount } from "../../../domain/index.ts";
import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./discovery.routes.ts";

const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.discovery;

export const feed: AppRouteHandler<typeof r.feed> = async (c) => c.json(await svc(c).feed(c.get("user")!, c.req.valid("query")), 200);

export const view: AppRouteHandler<typeof r.view> = async (c) => {
  const b = c.req.valid("json");
  return c.json(await svc(c).recordView(c.get("user")!, b.missionId, b.dwellMs), 201);
};

export const search: AppRouteHandler<typeof r.search> = async (c) => c.json(await svc(c).search(c.get("user") ?? null, c.req.valid("query")), 200);

export const nearby: AppRouteHandler<typeof r.nearby> = async (c) => {
  const q = c.req.valid("query");
  const res = await svc(c).nearby(c.get("user") ?? null, {
    ...q,
    minReward: q.minReward === undefined ? undefined : parseAmount(q.minReward),
    maxReward: q.maxReward === undefined ? undefined : parseAmount(q.maxReward),
  });
  return c.json(res, 200);
};

export const verifyPresence: AppRouteHandler<typeof r.verifyPresence> = async (c) =>
  c.json(await svc(c).verifyPresence(c.get("user")!, c.req.valid("param").id, c.req.valid("json")), 200);
