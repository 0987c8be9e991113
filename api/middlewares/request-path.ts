// Every request's path through the API in ONE middleware, requestPath() (issue 40; bench B1 measured
// ~14 async layers at about 300 µs of CPU a read more than a bare Hono + pg route):
// - before the route: deps, request id, logger, client IP, the secure headers and CSP, CORS (preflights
//   answered here, uncounted and unlogged); then the token, the rate limit, a bad token's refusal, the
//   relayer budget of a signed-in user, and for requests that may carry a body the write guards
//   (write-guards.ts). GET and HEAD skip those;
// - after the response: the database-outage mapping, metrics and the access log.
// An error thrown before the route (429, a bad token's 401, a write guard's refusal) is turned into its
// envelope here by the app's error handler, as Hono's compose did when this was a second layer, so it is
// still mapped, counted and logged. An error of the route itself is handled by compose at its layer.
// Headers are written once: on a request served by the API's server as one list its ServerResponse
// writes in writeHead beside the route's own, which win (api/lib/api-response.ts), so the common JSON
// response keeps the node adapter's plain-object fast path; under app.request() (no socket) onto the
// Response after it is made.
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import type { ServerResponse } from "node:http";
import { ApiResponse } from "../lib/api-response.ts";
import { mark, stageTraceOn, traced } from "../lib/stage-trace.ts";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../app-types.ts";
import { relayingFor } from "../services/relayer/index.ts";
import type { RateDecision } from "../services/rate-limit.service.ts";
import { readToken } from "./auth.ts";
import { bindingsOf, clientIp, recordRequest, RequestLogger } from "./observe.ts";
import { countRequest, rateLimitHeaders } from "./rate-limit.ts";
import { corsPolicy, mapDatabaseOutage, SECURE_HEADERS } from "./security.ts";
import { writeGuards } from "./write-guards.ts";

type Ctx = Context<AppEnv>;
type Header = readonly [string, string];

/** A caller's X-Request-Id is reused when it is short and plain (as hono/request-id checks), else a new one. */
const REQUEST_ID_RE = /^[\w\-=]{1,255}$/;

/** Headers held for a request without a socket (app.request()), written after the response. */
const held = new WeakMap<Ctx, Header[]>();

/** The secure headers and CSP as a flat list, copied into each served response's own list. */
const SECURE_FLAT: readonly string[] = SECURE_HEADERS.flat();

/**
 * Where a request's headers go: the API's own ServerResponse takes them as one list that writeHead
 * writes with the route's (api/lib/api-response.ts); another served response (node-server's serve()
 * without the API's options, as a test may run it) gets them with setHeader; no socket: held.
 */
type Sink = ApiResponse | ServerResponse | undefined;

function sinkOf(c: Ctx): Sink {
  const out = bindingsOf(c)?.outgoing;
  return out && !out.headersSent ? out : undefined;
}

function hold(c: Ctx, headers: readonly Header[]): void {
  const list = held.get(c);
  if (list) list.push(...headers);
  else held.set(c, [...headers]);
}

function write(c: Ctx, out: Sink, headers: readonly Header[]): void {
  if (out instanceof ApiResponse) for (const [k, v] of headers) out.pathHeaders!.push(k, v);
  else if (out) for (const [k, v] of headers) out.setHeader(k, v);
  else hold(c, headers);
}

function writeHeldHeaders(c: Ctx): void {
  const list = held.get(c);
  if (!list) return;
  const h = c.res.headers;
  for (const [k, v] of list) if (k === "Vary" ? !h.get("vary")?.includes(v) : !h.has(k)) h.append(k, v);
}

function writeRateLimitHeaders(c: Ctx, out: Sink, d: RateDecision): void {
  if (out instanceof ApiResponse) out.pathHeaders!.push("X-RateLimit-Limit", String(d.limit), "X-RateLimit-Remaining", String(d.remaining), "X-RateLimit-Reset", String(d.resetSeconds));
  else write(c, out, rateLimitHeaders(d));
}

/** The request path: one middleware for every route (see the top of this file). */
export function requestPath(deps: Deps, onError: ErrorHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  const { env, logger, metrics } = deps;
  const cors = corsPolicy(env.CORS_ORIGINS);
  const guards = writeGuards(env);
  const handle = async (c: Ctx, next: () => Promise<void>, started: number) => {
    c.set("deps", deps);
    const given = c.req.header("X-Request-Id");
    const requestId = given !== undefined && REQUEST_ID_RE.test(given) ? given : crypto.randomUUID();
    c.set("requestId", requestId);
    const out = sinkOf(c);
    if (out instanceof ApiResponse) {
      // The constant block by reference; only this request's own values are a new list.
      out.fixedHeaders = SECURE_FLAT;
      out.pathHeaders = ["X-Request-Id", requestId];
    } else write(c, out, [...SECURE_HEADERS, ["X-Request-Id", requestId]]);
    // Preflights are answered before anything is counted or logged.
    if (cors.preflight && c.req.method === "OPTIONS") {
      const res = await cors.preflight(c, next);
      if (res) c.res = res;
      writeHeldHeaders(c);
      return;
    }
    if (cors.headers) write(c, out, cors.headers(c.req.header("Origin")));
    const log = new RequestLogger(logger, requestId);
    c.set("logger", log);
    c.set("clientIp", clientIp(c, env.TRUST_PROXY));
    c.set("user", null);
    try {
      const authorization = c.req.header("Authorization");
      // A bad token is refused after the request is counted (by IP), so guessing tokens is rate limited.
      const badToken = authorization === undefined ? undefined : await readToken(c, authorization);
      const counted = countRequest(c);
      writeRateLimitHeaders(c, out, counted instanceof Promise ? await counted : counted);
      if (badToken) throw badToken;
      mark("auth");
      const method = c.req.method;
      const user = c.get("user");
      if (method === "GET" || method === "HEAD") {
        // A signed-in request's relayed transactions are charged to its wallet's hourly budget.
        await (user ? relayingFor(user.evmAddress, next) : next());
      } else {
        const inner = () => guards(c, next);
        await (user ? relayingFor(user.evmAddress, inner) : inner());
      }
    } catch (err) {
      // As Hono's compose does at a layer: an Error becomes the app's error response, anything else is rethrown.
      if (!(err instanceof Error)) throw err;
      c.error = err;
      c.res = await onError(err, c);
    }
    mapDatabaseOutage(c);
    writeHeldHeaders(c);
    recordRequest(c, metrics, log, started);
  };
  return (c, next) => {
    const started = performance.now();
    // STAGE_TRACE_FILE (a diagnostic, off by default): each write's stages (api/lib/stage-trace.ts).
    return stageTraceOn() && c.req.method === "POST" ? traced(c.req.path, started, () => handle(c, next, started)) : handle(c, next, started);
  };
}
