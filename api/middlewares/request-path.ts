// Every request's path through the API in two middlewares (issue 40; bench B1 measured ~14 async
// layers at about 300 µs of CPU a read more than a bare Hono + pg route):
// - edge(): deps, request id, logger, client IP, the secure headers and CSP, CORS (preflights answered
//   here), then after the response the database-outage mapping, metrics and the access log;
// - gate(): the token, the rate limit, a bad token's refusal, the relayer budget of a signed-in user,
//   and for requests that may carry a body the write guards (write-guards.ts). GET and HEAD skip those.
// Headers are written once: on a served request straight onto node's response (setHeader, merged by
// writeHead with the route's own, which win), so the common JSON response keeps the node adapter's
// plain-object fast path; under app.request() (no socket) onto the Response after it is made.
import type { Context, MiddlewareHandler } from "hono";
import type { Deps } from "../deps.ts";
import type { AppEnv } from "../app-types.ts";
import { relayingFor } from "../services/relayer/index.ts";
import { readToken } from "./auth.ts";
import { bindingsOf, clientIp, recordRequest, RequestLogger } from "./observe.ts";
import { countRequest, rateLimitHeaders } from "./rate-limit.ts";
import { corsPolicy, mapDatabaseOutage, SECURE_HEADERS } from "./security.ts";
import { writeGuards } from "./write-guards.ts";

type Ctx = Context<AppEnv>;
type Header = readonly [string, string];

/** A caller's X-Request-Id is reused when it is short and plain (as hono/request-id checks), else a new one. */
const REQUEST_ID_RE = /^[\w\-=]{1,255}$/;

/** Headers held for a request without a socket (app.request()), written by edge() after the response. */
const held = new WeakMap<Ctx, Header[]>();

/** Writes response headers; a header the route sets itself keeps the route's value. */
function writeHeaders(c: Ctx, headers: readonly Header[]): void {
  const out = bindingsOf(c)?.outgoing;
  if (out && !out.headersSent) {
    for (const [k, v] of headers) out.setHeader(k, v);
    return;
  }
  const list = held.get(c);
  if (list) list.push(...headers);
  else held.set(c, [...headers]);
}

function writeHeldHeaders(c: Ctx): void {
  const list = held.get(c);
  if (!list) return;
  const h = c.res.headers;
  for (const [k, v] of list) if (k === "Vary" ? !h.get("vary")?.includes(v) : !h.has(k)) h.append(k, v);
}

export function edge(deps: Deps): MiddlewareHandler<AppEnv> {
  const { env, logger, metrics } = deps;
  const cors = corsPolicy(env.CORS_ORIGINS);
  return async (c, next) => {
    const started = performance.now();
    c.set("deps", deps);
    const given = c.req.header("X-Request-Id");
    const requestId = given !== undefined && REQUEST_ID_RE.test(given) ? given : crypto.randomUUID();
    c.set("requestId", requestId);
    writeHeaders(c, SECURE_HEADERS);
    writeHeaders(c, [["X-Request-Id", requestId]]);
    // Preflights are answered before anything is counted or logged.
    if (c.req.method === "OPTIONS" && cors.preflight) {
      const res = await cors.preflight(c, next);
      if (res) c.res = res;
      writeHeldHeaders(c);
      return;
    }
    if (cors.headers) writeHeaders(c, cors.headers(c.req.header("Origin")));
    const log = new RequestLogger(logger, requestId);
    c.set("logger", log);
    c.set("clientIp", clientIp(c, env.TRUST_PROXY));
    c.set("user", null);
    await next();
    mapDatabaseOutage(c);
    writeHeldHeaders(c);
    recordRequest(c, metrics, log, started);
  };
}

export function gate(deps: Deps): MiddlewareHandler<AppEnv> {
  const guards = writeGuards(deps.env);
  return async (c, next) => {
    const authorization = c.req.header("Authorization");
    // A bad token is refused after the request is counted (by IP), so guessing tokens is rate limited.
    const badToken = authorization === undefined ? undefined : await readToken(c, authorization);
    writeHeaders(c, rateLimitHeaders(await countRequest(c)));
    if (badToken) throw badToken;
    const method = c.req.method;
    const inner = method === "GET" || method === "HEAD" ? next : () => guards(c, next);
    const user = c.get("user");
    // A signed-in request's relayed transactions are charged to its wallet's hourly budget.
    await (user ? relayingFor(user.evmAddress, inner) : inner());
  };
}
