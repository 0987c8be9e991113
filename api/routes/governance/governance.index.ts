// Governance proposals and votes (level 16), and referrals.
import { createRouter } from "../create-app.ts";
import * as h from "./governance.handlers.ts";
import * as r from "./governance.routes.ts";
import * as rh from "./referrals.handlers.ts";
import * as rr from "./referrals.routes.ts";

export const governanceRouter = () =>
  createRouter()
    .openapi(r.create, h.create)
    .openapi(r.list, h.list)
    .openapi(r.get, h.get)
    .openapi(r.vote, h.vote)
    .openapi(rr.refer, rh.refer);
