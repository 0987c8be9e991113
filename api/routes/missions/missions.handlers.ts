import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Address } from "viem";
import { parseAmount } from "../../../domain/index.ts";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./missions.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.missions;

export const list: H<typeof r.list> = async (c) => {
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

export const get: H<typeof r.get> = async (c) =>
  c.json({ data: await svc(c).get(c.req.valid("param").id, c.get("user")?.evmAddress as Address | undefined) }, 200);

export const create: H<typeof r.create> = async (c) => c.json({ data: await svc(c).create(c.get("user")!, c.req.valid("json")) }, 201);

export const patch: H<typeof r.patch> = async (c) =>
  c.json({ data: await svc(c).patch(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const accept: H<typeof r.accept> = async (c) => c.json({ data: await svc(c).accept(c.get("user")!, c.req.valid("param").id) }, 200);

export const submit: H<typeof r.submit> = async (c) =>
  c.json({ data: await svc(c).submit(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);

export const approve: H<typeof r.approve> = async (c) => {
  const user = c.get("user")!;
  const { id } = c.req.valid("param");
  const { rating, feedback } = c.req.valid("json") ?? {};
  const approved = await svc(c).approve(user, id);
  if (rating === undefined) return c.json({ data: approved }, 200);
  const rated = await c.get("deps").services.profile.ratings.rateApproved(user, id, { score: rating, comment: feedback ?? "" }, new URL(c.req.url).origin);
  return c.json({ data: { ...approved, ...rated } }, 200);
};

export const cancel: H<typeof r.cancel> = async (c) => c.json({ data: await svc(c).cancel(c.get("user")!, c.req.valid("param").id) }, 200);

export const dispute: H<typeof r.dispute> = async (c) =>
  c.json({ data: await svc(c).dispute(c.get("user")!, c.req.valid("param").id, c.req.valid("json")) }, 200);
