// The HTTP rate limit, counted once per request by the request path (request-path.ts): per user when
// signed in, else per client IP (tiers in rate-limit.service.ts).
import type { Context } from "hono";
import { AppError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import type { RateDecision } from "../services/rate-limit.service.ts";

/** Operational endpoints are not counted (a probe must not eat a client's budget), but still report. */
const EXEMPT = new Set(["/health", "/metrics", "/v2/health", "/v2/metrics"]);

/** The X-RateLimit-* headers of a decision. */
export const rateLimitHeaders = (d: RateDecision): [string, string][] => [
  ["X-RateLimit-Limit", String(d.limit)],
  ["X-RateLimit-Remaining", String(d.remaining)],
  ["X-RateLimit-Reset", String(d.resetSeconds)],
];

/** Counts the request (after the token is read); past the limit throws 429 RATE_LIMITED with Retry-After. */
export async function countRequest(c: Context<AppEnv>): Promise<RateDecision> {
  const deps = c.get("deps");
  const user = c.get("user");
  const who = { userId: user?.id, premium: user?.premium, ip: c.get("clientIp") };
  const decision = EXEMPT.has(c.req.path) ? await deps.rateLimiter.peek(who) : await deps.rateLimiter.hit(who);
  if (!decision.allowed) {
    deps.metrics.rateLimited.inc();
    throw new AppError("RATE_LIMITED", `Rate limit of ${decision.limit} requests per minute exceeded`, undefined, {
      ...Object.fromEntries(rateLimitHeaders(decision)),
      "Retry-After": String(decision.resetSeconds),
    });
  }
  return decision;
}
