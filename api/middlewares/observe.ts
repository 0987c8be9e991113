// Per-request logger (with the request id), client IP, access log and HTTP metrics.
import { getConnInfo } from "@hono/node-server/conninfo";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { clientIpFrom } from "../lib/client-ip.ts";
import type { AppEnv } from "../app-types.ts";

function clientIp(c: Parameters<MiddlewareHandler<AppEnv>>[0], trustProxy: boolean): string {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // in-process app.request() has no socket
  }
  return clientIpFrom(c.req.header("X-Forwarded-For"), remote, trustProxy);
}

export const observe = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const deps = c.get("deps");
  const started = performance.now();
  const log = deps.logger.child({ requestId: c.get("requestId") });
  c.set("logger", log);
  c.set("clientIp", clientIp(c, deps.env.TRUST_PROXY));
  c.set("user", null);
  await next();
  const seconds = (performance.now() - started) / 1000;
  // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
  const matched = routePath(c, -1);
  const route = c.res.status === 404 && (matched === "/*" || matched === "*") ? "unmatched" : matched;
  deps.metrics.httpRequests.inc({ method: c.req.method, route, status: String(c.res.status) });
  deps.metrics.httpDuration.observe({ method: c.req.method, route }, seconds);
  log.info("request", {
    method: c.req.method,
    path: c.req.path,
    status: c.res.status,
    durationMs: Math.round(seconds * 1000),
    userId: c.get("user")?.id,
  });
};
