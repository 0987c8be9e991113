// Per-request observation for the request path (request-path.ts): the client IP, a logger that carries
// the request id (built only when something logs), and the access log line plus HTTP metrics.
import type { Context } from "hono";
import { routePath } from "hono/route";
import { getPath } from "hono/utils/url";
import type { HttpBindings } from "@hono/node-server";
import { clientIpFrom } from "../lib/client-ip.ts";
import type { Level, Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { AppEnv } from "../app-types.ts";

type Ctx = Context<AppEnv>;

/** The node-server bindings of a served request; undefined under app.request() (no socket). */
export const bindingsOf = (c: Ctx): Partial<HttpBindings> | undefined => c.env as Partial<HttpBindings> | undefined;

export function clientIp(c: Ctx, trustProxy: boolean): string {
  return clientIpFrom(trustProxy ? c.req.header("X-Forwarded-For") : undefined, bindingsOf(c)?.incoming?.socket?.remoteAddress, trustProxy);
}

/** `base.child({ requestId })`, made on the first line written (most requests write none). */
export class RequestLogger implements Logger {
  readonly base: Logger;
  readonly requestId: string;
  #child: Logger | undefined;
  constructor(base: Logger, requestId: string) {
    this.base = base;
    this.requestId = requestId;
  }
  get log(): Logger {
    return (this.#child ??= this.base.child({ requestId: this.requestId }));
  }
  debug(msg: string, fields?: Record<string, unknown>) {
    if (this.base.enabled("debug")) this.log.debug(msg, fields);
  }
  info(msg: string, fields?: Record<string, unknown>) {
    if (this.base.enabled("info")) this.log.info(msg, fields);
  }
  warn(msg: string, fields?: Record<string, unknown>) {
    if (this.base.enabled("warn")) this.log.warn(msg, fields);
  }
  error(msg: string, fields?: Record<string, unknown>) {
    if (this.base.enabled("error")) this.log.error(msg, fields);
  }
  child(fields: Record<string, unknown>): Logger {
    return this.log.child(fields);
  }
  enabled(level: Level): boolean {
    return this.base.enabled(level);
  }
}

/** After the response: the request counter and duration histogram, and the access log line (info). */
export function recordRequest(c: Ctx, metrics: Metrics, log: Logger, started: number): void {
  const seconds = (performance.now() - started) / 1000;
  const status = c.res.status;
  // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
  const matched = routePath(c, -1);
  const route = status === 404 && (matched === "/*" || matched === "*") ? "unmatched" : matched;
  const method = c.req.method;
  metrics.http.record(method, route, status, seconds);
  if (log.enabled("info")) {
    // The path as sent (/v2 included: routing strips it, api/routes/create-app.ts).
    log.info("request", { method, path: getPath(c.req.raw), status, durationMs: Math.round(seconds * 1000), userId: c.get("user")?.id });
  }
}
