import type { MiddlewareHandler } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../lib/types.ts";

const JSON_RE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** A request that carries a body must carry JSON (415 otherwise). Bodiless POSTs are fine. */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
  const length = c.req.header("Content-Length");
  const hasBody = (length !== undefined && length !== "0") || c.req.header("Transfer-Encoding") !== undefined;
  const type = c.req.header("Content-Type");
  if (hasBody && (!type || !JSON_RE.test(type))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Request body must be application/json");
  }
  await next();
};
