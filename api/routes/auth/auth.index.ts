import { createRouter } from "../create-app.ts";
import * as handlers from "./auth.handlers.ts";
import * as routes from "./auth.routes.ts";

export const authRouter = () =>
  createRouter().openapi(routes.message, handlers.message).openapi(routes.verify, handlers.verify);
