import { createRouter } from "../create-app.ts";
import * as h from "./guilds.handlers.ts";
import * as r from "./guilds.routes.ts";

export const guildsRouter = () =>
  createRouter()
    .openapi(r.list, h.list)
    .openapi(r.create, h.create)
    .openapi(r.get, h.get)
    .openapi(r.members, h.members)
    .openapi(r.board, h.board)
    .openapi(r.join, h.join)
    .openapi(r.leave, h.leave)
    .openapi(r.publish, h.publish)
    .openapi(r.setRoles, h.setRoles)
    .openapi(r.invite, h.invite);
