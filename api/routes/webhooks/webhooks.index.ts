import { createRouter } from "../create-app.ts";
import * as h from "./webhooks.handlers.ts";
import * as r from "./webhooks.routes.ts";

export const webhooksRouter = () =>
  createRouter()
    .openapi(r.register, h.register)
    .openapi(r.list, h.list)
    .openapi(r.deliveries, h.deliveries)
    .openapi(r.remove, h.remove)
    .openapi(r.rotate, h.rotate);
