import type { MiddlewareHandler } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import type { RateDecision } from "../services/rate-limit.service.ts";

/** Operational endpoints are not counted (a probe must not eat a client's budget), but still report. */
const EXEMPT = new Set(["/health", "/metrics", "/v2/health", "/v2/metrics"]);

const headers = (d: RateDecision): Record<string, string> => ({
  "X-RateLimit-Limit": String(d.limit),
  "X-RateLimit-Remaining": String(d.remaining),
  "X-RateLimit-Reset": String(d.resetSeconds),
});

export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const deps = c.get("deps");
  const user = c.get("user");
  const who = { userId: user?.id, premium: user?.premium, ip: c.get("clientIp") };
  const decision = EXEMPT.has(c.req.path) ? await deps.rateLimiter.peek(who) : await deps.rateLimiter.hit(who);
  if (!decision.allowed) {
    deps.metrics.rateLimited.inc();
    throw new AppError("RATE_LIMITED", `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, {
      ...headers(decision),
      "Retry-After": String(decision.resetSeconds),
    });
  }
  await next();
  for (const [k, v] of Object.entries(headers(decision))) c.res.headers.set(k, v);
};
