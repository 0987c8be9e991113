import type { Address } from "viem";
import { parseAmount } from "../../../domain/index.ts";
import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import { sendJson } from "../../lib/json-text.ts";
import type * as r from "./missions.routes.ts";

const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.missions;

export const list: AppRouteHandler<typeof r.list> = async (c) => {
  const q = c.req.valid("query");
  const viewer = c.get("user")?.evmAddress as Address | undefined;
  const page = await svc(c).list(
    {
      ...q,
      minReward: q.minReward === undefined ? undefined : parseAmount(q.minReward),
      maxReward: q.maxReward === undefined ? undefined : parseAmount(q.maxReward),
    },
    viewer,
  );
  return c.json(page, 200);
};

/** The body comes as JSON text from PostgreSQL (missions.service.ts viewJson) and is sent on as it is. */
export const get: AppRouteHandler<typeof r.get> = async (c) => {
  const body = await svc(c).viewJson(c.req.valid("param").id, c.get("user")?.evmAddress as Address | undefined);
  return sendJson(c, body, 200);
};

export const create: AppRouteHandler<typeof r.create> = async (c) => c.json({ data: await svc(c).create(c.get("user")!, c.req.valid("json")) }, 201);

export const patch: AppRouteHandler<typeof r.patch> = async (c) =>
  c.json({ data: await svc(c).patch(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const accept: AppRouteHandler<typeof r.accept> = async (c) => c.json({ data: await svc(c).accept(c.get("user")!, c.req.valid("param").id) }, 200);

export const submit: AppRouteHandler<typeof r.submit> = async (c) =>
  c.json({ data: await svc(c).submit(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const approve: AppRouteHandler<typeof r.approve> = async (c) => {
  const user = c.get("user")!;
  const { id } = c.req.valid("param");
  const { rating, feedback } = c.req.valid("json") ?? {};
  const approved = await svc(c).approve(user, id);
  if (rating === undefined) return c.json({ data: approved }, 200);
  const rated = await c.get("deps").services.profile.ratings.rateApproved(user, id, { score: rating, comment: feedback ?? "" }, new URL(c.req.url).origin);
  return c.json({ data: { ...approved, ...rated } }, 200);
};

export const cancel: AppRouteHandler<typeof r.cancel> = async (c) => c.json({ data: await svc(c).cancel(c.get("user")!, c.req.valid("param").id) }, 200);

export const dispute: AppRouteHandler<typeof r.dispute> = async (c) =>
  c.json({ data: await svc(c).dispute(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);
