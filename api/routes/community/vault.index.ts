import { createRouter } from "../create-app.ts";
import * as h from "./vault.handlers.ts";
import * as r from "./vault.routes.ts";

export const vaultRouter = () =>
  createRouter()
    .openapi(r.initialize, h.initialize)
    .openapi(r.sync, h.sync)
    .openapi(r.exportData, h.exportData)
    .openapi(r.remove, h.remove)
    .openapi(r.getPermissions, h.getPermissions)
    .openapi(r.patchPermissions, h.patchPermissions);
