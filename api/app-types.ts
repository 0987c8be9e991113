// The Hono environment of every request (what middlewares set on `c.var`) and the one handler type
// every route file uses. Above api/lib/ on purpose: it names the composition root's Deps.
import type { RouteConfig, RouteHandler } from "@hono/zod-openapi";
import type { Deps } from "./deps.ts";
import type { Logger } from "./lib/logger.ts";
import type { UserRow } from "./repositories/users.repository.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    deps: Deps;
    /** Set by the auth middleware when a valid bearer token came with the request. */
    user: UserRow | null;
    clientIp: string;
  };
}

/** A handler typed against its route: `c.req.valid(...)` and the responses come from `R`. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;
