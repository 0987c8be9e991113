// Disputes and resolvers. Literal paths before /resolver/disputes/{id}.
import { createRouter } from "../create-app.ts";
import * as h from "./disputes.handlers.ts";
import * as r from "./disputes.routes.ts";

export const disputesRouter = () =>
  createRouter()
    .openapi(r.listAll, h.listAll)
    .openapi(r.byMission, h.byMission)
    .openapi(r.byUser, h.byUser)
    .openapi(r.queue, h.queue)
    .openapi(r.resolverQueue, h.resolverQueue)
    .openapi(r.stats, h.stats)
    .openapi(r.get, h.get)
    .openapi(r.uploadEvidence, h.uploadEvidence)
    .openapi(r.readEvidence, h.readEvidence)
    .openapi(r.take, h.take)
    .openapi(r.resolve, h.resolve)
    .openapi(r.appeal, h.appeal)
    .openapi(r.decide, h.decide)
    .openapi(r.finalize, h.finalize)
    .openapi(r.release, h.release);
