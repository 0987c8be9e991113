import { createRouter } from "../create-app.ts";
import * as h from "./notifications.handlers.ts";
import * as r from "./notifications.routes.ts";

// read-all and unread-count before /{id}/read is not needed (different shapes), kept in spec order.
export const notificationsRouter = () =>
  createRouter()
    .openapi(r.list, h.list)
    .openapi(r.unreadCount, h.unreadCount)
    .openapi(r.readAll, h.readAll)
    .openapi(r.read, h.read)
    .openapi(r.readPreferences, h.readPreferences)
    .openapi(r.preferences, h.preferences)
    .openapi(r.registerDevice, h.registerDevice);
