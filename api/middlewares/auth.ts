// The bearer token of a request (read by the request path, api/middlewares/request-path.ts) and the
// gate of the routes that need a signed-in user.
import type { Context, MiddlewareHandler } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";

const BEARER_RE = /^Bearer\s+(\S+)\s*$/i;

/**
 * Signs the request's user in from its Authorization header (c.var.user). A bad token is returned,
 * not thrown, so the request is still counted by the rate limiter (by IP) before it is refused.
 */
export async function readToken(c: Context<AppEnv>, header: string): Promise<AppError | undefined> {
  const m = BEARER_RE.exec(header);
  try {
    if (!m) throw new AppError("UNAUTHORIZED", "Authorization header must be 'Bearer <token>'");
    const deps = c.get("deps");
    const { user } = await deps.services.auth.authenticate(m[1]!);
    c.set("user", user);
    void deps.repos.users.touch(user.id).catch(() => {});
    return undefined;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return err;
  }
}

/** For routes that need a signed-in user. */
export const requireUser = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (!c.get("user")) throw new AppError("UNAUTHORIZED", "Authentication required: send Authorization: Bearer <token>");
  await next();
};
