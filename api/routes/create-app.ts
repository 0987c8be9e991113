// createRouter() for resource folders, createApp() for the root: /v2 routed as the unprefixed path,
// the error envelope for 404/405 and every thrown error (the request path is api/middlewares/request-path.ts).
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hook, RouteConfig } from "@hono/zod-openapi";
import type { Context, ErrorHandler, Next } from "hono";
import { HTTPException } from "hono/http-exception";
import { TrieRouter } from "hono/router/trie-router";
import { ShapeRouter } from "../lib/shape-router.ts";
import { getPathNoStrict } from "hono/utils/url";
import { AppError, errorBody, validationError, zodIssues, type ErrorCode } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import { checkPathParams, lengthOnly, pathParams } from "./path-params.ts";

const WHERE: Record<string, string> = { json: "body", form: "body", query: "query", param: "path", header: "header" };

export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const where = WHERE[result.target] ?? result.target;
    // From the issue's own path: a field named like its location (a body's `body`) is still `body.body`.
    const issues = zodIssues(result.error.issues).map((i, n) => ({
      ...i,
      field: result.error.issues[n]!.path.length === 0 ? where : `${where}.${i.field}`,
    }));
    throw validationError(issues);
  }
};

/**
 * A resource folder's router. A route whose path parameters zod would only check for length (and that
 * has no query) gets them checked by path-params.ts instead of the zod validator, at the same place
 * in its chain (in the handler's layer when nothing else is validated), with the same errors; its
 * OpenAPI entry is registered as it is.
 */
export function createRouter() {
  const router = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook });
  const openapi = router.openapi as (route: RouteConfig, handler: unknown, hook?: unknown) => unknown;
  router.openapi = ((route: RouteConfig, handler: unknown, hook?: unknown) => {
    const params = route.request?.params;
    const bounds = params && !route.request?.query && hook === undefined ? lengthOnly(params) : null;
    if (!bounds) return openapi(route, handler, hook);
    const { middleware, hide, ...entry } = route;
    if (!hide) router.openAPIRegistry.registerPath(entry);
    const { params: _checkedHere, ...request } = route.request!;
    const before = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
    if (Object.keys(request).length > 0) {
      // Other validators (a body, headers) follow the params' in zod-openapi's chain: check them first.
      openapi({ ...entry, request, hide: true, middleware: [...before, pathParams(params, bounds, validationHook as never)] }, handler);
      return router;
    }
    // Nothing is validated after the params: checked in the handler's own layer, one layer less a request.
    const check = checkPathParams(params, bounds, validationHook as never);
    const run = handler as (c: Context<AppEnv>, next: Next) => unknown;
    openapi({ ...entry, request, hide: true, middleware: before }, (c: Context<AppEnv>, next: Next) => {
      check(c);
      return run(c, next);
    });
    return router;
  }) as typeof router.openapi;
  return router;
}

const HTTP_CODES: Record<number, ErrorCode> = {
  400: "VALIDATION_ERROR",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
};

/** Any thrown value -> AppError. Unknown failures become INTERNAL_ERROR and reveal nothing. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    const code = HTTP_CODES[err.status];
    if (code === "VALIDATION_ERROR") {
      return validationError([{ field: "body", reason: err.message || "malformed request body" }]);
    }
    if (code) return new AppError(code, err.message || code);
  }
  return new AppError("INTERNAL_ERROR", "Internal server error");
}

/**
 * The path a request is routed by: /v2 is the same API (spec "Versioning"), so /v2/x routes as /x
 * through one route table instead of a second copy of it. A trailing slash is ignored (strict: false).
 */
export function routedPath(req: Request): string {
  const path = getPathNoStrict(req);
  return path.startsWith("/v2") && (path.length === 3 || path.charCodeAt(3) === 47) ? path.slice(3) || "/" : path;
}

/** The methods each path answers (HEAD with GET), for 405s: built on the first miss. */
function allowedMethods(app: { routes: { method: string; path: string }[] }) {
  let router: TrieRouter<string[]> | undefined;
  return (path: string): Set<string> => {
    if (!router) {
      const byPath = new Map<string, Set<string>>();
      for (const r of app.routes) {
        if (r.method === "ALL" || r.method === "HEAD") continue;
        const m = byPath.get(r.path) ?? new Set<string>();
        m.add(r.method);
        if (r.method === "GET") m.add("HEAD");
        byPath.set(r.path, m);
      }
      router = new TrieRouter<string[]>();
      for (const [p, m] of byPath) router.add("ALL", p, [...m]);
    }
    return new Set(router.match("ALL", path)[0].flatMap(([m]) => m));
  };
}

/** Every thrown error as its envelope (the app's error handler; also the request path's, request-path.ts). */
export const errorResponse: ErrorHandler<AppEnv> = (err, c) => {
  const appErr = toAppError(err);
  const log = c.get("logger");
  if (appErr.status >= 500 && appErr.code === "INTERNAL_ERROR") {
    log?.error("unhandled error", { err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) });
  }
  return c.json(errorBody(appErr), appErr.status, appErr.headers);
};

/** The root app: routing by routedPath(), 404 and 405 (with Allow) and every error in the envelope. */
export function createApp() {
  // The TrieRouter's matches remembered per path shape (api/lib/shape-router.ts; the RegExpRouter refuses the table).
  const app = new OpenAPIHono<AppEnv>({ strict: true, getPath: routedPath, defaultHook: validationHook, router: new ShapeRouter() });
  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.size > 0 && !methods.has(c.req.method)) {
      return c.json(errorBody(new AppError("METHOD_NOT_ALLOWED", `Method ${c.req.method} not allowed`)), 405, { Allow: [...methods].join(", ") });
    }
    return c.json(errorBody(new AppError("NOT_FOUND", `No route for ${c.req.method} ${getPathNoStrict(c.req.raw)}`)), 404);
  });
  app.onError(errorResponse);
  return app;
}
