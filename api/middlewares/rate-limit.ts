// The HTTP rate limit, counted once per request by the request path (request-path.ts): per user when
// signed in, else per client IP (tiers in rate-limit.service.ts).
import type { Context } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import type { MaybeDecision, RateDecision } from "../services/rate-limit.service.ts";

/** Operational endpoints are not counted (a probe must not eat a client's budget), but still report. */
const EXEMPT = new Set(["/health", "/metrics", "/v2/health", "/v2/metrics"]);

/** The X-RateLimit-* headers of a decision. */
export const rateLimitHeaders = (d: RateDecision): [string, string][] => [
  ["X-RateLimit-Limit", String(d.limit)],
  ["X-RateLimit-Remaining", String(d.remaining)],
  ["X-RateLimit-Reset", String(d.resetSeconds)],
];

/** Past the limit: 429 RATE_LIMITED with Retry-After and the X-RateLimit-* headers. */
function refuse(c: Context<AppEnv>, decision: RateDecision): RateDecision {
  if (decision.allowed) return decision;
  c.get("deps").metrics.rateLimited.inc();
  throw new AppError("RATE_LIMITED", `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, {
    ...Object.fromEntries(rateLimitHeaders(decision)),
    "Retry-After": String(decision.resetSeconds),
  });
}

/**
 * Counts the request (after the token is read); past the limit throws 429 RATE_LIMITED with Retry-After.
 * With the in-memory store the decision comes back synchronously (no await on the request path).
 */
export function countRequest(c: Context<AppEnv>): MaybeDecision {
  const { rateLimiter } = c.get("deps");
  const user = c.get("user");
  const who = { userId: user?.id, premium: user?.premium, ip: c.get("clientIp") };
  const decision = EXEMPT.has(c.req.path) ? rateLimiter.peek(who) : rateLimiter.hit(who);
  return decision instanceof Promise ? decision.then((d) => refuse(c, d)) : refuse(c, decision);
}
