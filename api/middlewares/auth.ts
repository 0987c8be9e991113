// Reads an optional bearer token. A bad token is remembered, not thrown, so the request is still
// counted by the rate limiter (by IP) before it is refused.
import type { MiddlewareHandler } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import { relayingFor } from "../services/relayer/index.ts";

const pendingAuthError = new WeakMap<object, AppError>();

export const readToken = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header("Authorization");
  if (header !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    try {
      if (!m) throw new AppError("UNAUTHORIZED", "Authorization header must be 'Bearer <token>'");
      const deps = c.get("deps");
      const { user } = await deps.services.auth.authenticate(m[1]!);
      c.set("user", user);
      void deps.repos.users.touch(user.id).catch(() => {});
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      pendingAuthError.set(c.req.raw, err);
    }
  }
  await next();
};

/** Throws the remembered token error, if any (runs after rate limiting). */
export const rejectBadToken = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const err = pendingAuthError.get(c.req.raw);
  if (err) throw err;
  await next();
};

/** For routes that need a signed-in user. */
export const requireUser = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.get("user")) throw new AppError("UNAUTHORIZED", "Authentication required: send Authorization: Bearer <token>");
  await next();
};

/** A signed-in request's relayed transactions are charged to its wallet's hourly budget. */
export const relayOnBehalf = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const user = c.get("user");
  return user ? relayingFor(user.evmAddress, next) : next();
};
