import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type * as r from "./disputes.routes.ts";

type C = { get: (k: "deps") => AppEnv["Variables"]["deps"] };
const svc = (c: C) => c.get("deps").services.disputes;

export const listAll: AppRouteHandler<typeof r.listAll> = async (c) => c.json(await svc(c).list(c.req.valid("query"), c.get("user")), 200);
/** Whose privacy settings apply: the signed-in caller's relation to each party (null: a stranger). */
const viewer = (c: { get: (k: "user") => AppEnv["Variables"]["user"] }) => c.get("user")?.evmAddress ?? null;
export const get: AppRouteHandler<typeof r.get> = async (c) => c.json(await svc(c).get(c.req.valid("param").id, viewer(c)), 200);
export const byMission: AppRouteHandler<typeof r.byMission> = async (c) => c.json(await svc(c).byMission(c.req.valid("param").missionId, viewer(c)), 200);
export const byUser: AppRouteHandler<typeof r.byUser> = async (c) =>
  c.json(await svc(c).byUser(c.req.valid("param").userId, c.req.valid("query").role, viewer(c)), 200);
export const queue: AppRouteHandler<typeof r.queue> = async (c) => c.json(await svc(c).queue(viewer(c)), 200);
export const resolverQueue: AppRouteHandler<typeof r.resolverQueue> = async (c) => c.json(await svc(c).resolverQueue(c.req.valid("param").resolverId, viewer(c)), 200);
export const stats: AppRouteHandler<typeof r.stats> = async (c) => c.json(await svc(c).stats(c.req.valid("param").userId), 200);

export const uploadEvidence: AppRouteHandler<typeof r.uploadEvidence> = async (c) => {
  const form = c.req.valid("form");
  const bytes = new Uint8Array(await form.evidence.arrayBuffer());
  return c.json(await svc(c).uploadEvidence(c.get("user")!, c.req.valid("param").id, form.type, bytes), 200);
};
export const readEvidence: AppRouteHandler<typeof r.readEvidence> = async (c) => {
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
  });
};

const user = (c: { get: (k: "user") => AppEnv["Variables"]["user"] }) => c.get("user")!;
export const take: AppRouteHandler<typeof r.take> = async (c) => c.json(await svc(c).take(user(c), c.req.valid("param").id), 200);
export const resolve: AppRouteHandler<typeof r.resolve> = async (c) => c.json(await svc(c).resolve(user(c), c.req.valid("param").id, c.req.valid("json")), 200);
export const appeal: AppRouteHandler<typeof r.appeal> = async (c) => c.json(await svc(c).appeal(user(c), c.req.valid("param").id), 200);
export const decide: AppRouteHandler<typeof r.decide> = async (c) => c.json(await svc(c).decideAppeal(user(c), c.req.valid("param").id, c.req.valid("json")), 200);
export const finalize: AppRouteHandler<typeof r.finalize> = async (c) => c.json(await svc(c).finalize(c.req.valid("param").id), 200);
export const release: AppRouteHandler<typeof r.release> = async (c) => c.json(await svc(c).release(c.req.valid("param").id), 200);
