// Feed, search, nearby, presence.
import { createRouter } from "../create-app.ts";
import * as h from "./discovery.handlers.ts";
import * as r from "./discovery.routes.ts";

export const discoveryRouter = () =>
  createRouter()
    .openapi(r.feed, h.feed)
    .openapi(r.view, h.view)
    .openapi(r.search, h.search)
    .openapi(r.nearby, h.nearby)
    .openapi(r.verifyPresence, h.verifyPresence);
