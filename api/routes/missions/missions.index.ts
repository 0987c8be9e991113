import { createRouter } from "../create-app.ts";
import * as h from "./missions.handlers.ts";
import * as r from "./missions.routes.ts";
import * as mh from "./money.handlers.ts";
import * as mr from "./money.routes.ts";

export const missionsRouter = () =>
  createRouter()
    .openapi(r.list, h.list)
    .openapi(r.create, h.create)
    .openapi(r.get, h.get)
    .openapi(r.patch, h.patch)
    .openapi(r.accept, h.accept)
    .openapi(r.submit, h.submit)
    .openapi(r.approve, h.approve)
    .openapi(r.cancel, h.cancel)
    .openapi(r.dispute, h.dispute)
    .openapi(mr.offer, mh.offer)
    .openapi(mr.offers, mh.offers)
    .openapi(mr.withdraw, mh.withdraw)
    .openapi(mr.accept, mh.accept)
    .openapi(mr.release, mh.release)
    .openapi(mr.refund, mh.refund);
