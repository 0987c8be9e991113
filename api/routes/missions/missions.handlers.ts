import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Address } from "viem";
import { parseAmount } from "../../lib/money.ts";
import type { AppEnv } from "../../lib/types.ts";
import type * as r from "./missions.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
const svc = (c: { get: (k: "deps") => AppEnv["Variables"]["deps"] }) => c.get("deps").services.missions;
// Handlers return plain objects; the response schemas document them (cast keeps handlers short).
const ok = (c: { json: (b: unknown, s: 200 | 201) => Response }, data: unknown, status: 200 | 201 = 200) =>
  c.json({ data }, status) as never;

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
  return c.json(page, 200) as never;
};

export const get: H<typeof r.get> = async (c) =>
  ok(c, await svc(c).get(c.req.valid("param").id, c.get("user")?.evmAddress as Address | undefined));

export const create: H<typeof r.create> = async (c) => ok(c, await svc(c).create(c.get("user")!, c.req.valid("json")), 201);

export const patch: H<typeof r.patch> = async (c) =>
  ok(c, await svc(c).patch(c.get("user")!, c.req.valid("param").id, c.req.valid("json")));

export const accept: H<typeof r.accept> = async (c) => ok(c, await svc(c).accept(c.get("user")!, c.req.valid("param").id));

export const submit: H<typeof r.submit> = async (c) =>
  ok(c, await svc(c).submit(c.get("user")!, c.req.valid("param").id, c.req.valid("json")));

export const approve: H<typeof r.approve> = async (c) => ok(c, await svc(c).approve(c.get("user")!, c.req.valid("param").id));

export const cancel: H<typeof r.cancel> = async (c) => ok(c, await svc(c).cancel(c.get("user")!, c.req.valid("param").id));

export const dispute: H<typeof r.dispute> = async (c) =>
  ok(c, await svc(c).dispute(c.get("user")!, c.req.valid("param").id, c.req.valid("json")));
