import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../lib/types.ts";
import { disputesService } from "../../services/disputes.service.ts";
import type * as r from "./disputes.routes.ts";

type H<R extends RouteConfig> = RouteHandler<R, AppEnv>;
type C = { get: (k: "deps") => AppEnv["Variables"]["deps"] };
const svc = (c: C) => disputesService(c.get("deps"));
const ok = (c: { json: (b: unknown, s: 200) => Response }, body: unknown) => c.json(body, 200) as never;

export const listAll: H<typeof r.listAll> = async (c) => ok(c, await svc(c).list(c.req.valid("query"), c.get("user")));
export const get: H<typeof r.get> = async (c) => ok(c, await svc(c).get(c.req.valid("param").id));
export const byMission: H<typeof r.byMission> = async (c) => ok(c, await svc(c).byMission(c.req.valid("param").missionId));
export const byUser: H<typeof r.byUser> = async (c) =>
  ok(c, await svc(c).byUser(c.req.valid("param").userId, c.req.valid("query").role));
export const queue: H<typeof r.queue> = async (c) => ok(c, await svc(c).queue());
export const resolverQueue: H<typeof r.resolverQueue> = async (c) => ok(c, await svc(c).resolverQueue(c.req.valid("param").resolverId));
export const stats: H<typeof r.stats> = async (c) => ok(c, await svc(c).stats(c.req.valid("param").userId));

export const uploadEvidence: H<typeof r.uploadEvidence> = async (c) => {
  const form = c.req.valid("form");
  const bytes = new Uint8Array(await form.evidence.arrayBuffer());
  return ok(c, await svc(c).uploadEvidence(c.get("user")!, c.req.valid("param").id, form.type, bytes));
};
export const readEvidence: H<typeof r.readEvidence> = async (c) => {
  const f = await svc(c).readEvidence(c.get("user")!, c.req.valid("param").id, c.req.valid("query").type);
  return new Response(f.body, {
    status: 200,
    headers: {
      "Content-Type": f.mimeType,
      "Content-Length": String(f.size),
      "X-Evidence-Hash": f.hash,
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": `attachment; filename="${f.hash.slice(2, 18)}"`,
    },
  }) as never;
};

const user = (c: { get: (k: "user") => AppEnv["Variables"]["user"] }) => c.get("user")!;
export const take: H<typeof r.take> = async (c) => ok(c, await svc(c).take(user(c), c.req.valid("param").id));
export const resolve: H<typeof r.resolve> = async (c) => ok(c, await svc(c).resolve(user(c), c.req.valid("param").id, c.req.valid("json")));
export const appeal: H<typeof r.appeal> = async (c) => ok(c, await svc(c).appeal(user(c), c.req.valid("param").id));
export const decide: H<typeof r.decide> = async (c) => ok(c, await svc(c).decideAppeal(user(c), c.req.valid("param").id, c.req.valid("json")));
export const finalize: H<typeof r.finalize> = async (c) => ok(c, await svc(c).finalize(c.req.valid("param").id));
export const release: H<typeof r.release> = async (c) => ok(c, await svc(c).release(c.req.valid("param").id));
