// createRouter() for resource folders, createApp() for the root: request id, JSON logger, metrics,
// auth, rate limits, body limit, content type, the error envelope for 404/405/413/415/500.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import { HTTPException } from "hono/http-exception";
import { methodNotAllowed } from "hono/method-not-allowed";
import { requestId } from "hono/request-id";
import { AppError, errorBody, validationError, zodIssues, type ErrorCode } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";

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

export function createRouter() {
  return new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook });
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

export function createApp() {
  const app = createRouter();
  app.use(
    requestId({
      headerName: "X-Request-Id",
      // A caller's X-Request-Id is reused when it is short and plain (hono checks), else a new one.
      generator: () => crypto.randomUUID(),
    }),
  );
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(errorBody(new AppError("METHOD_NOT_ALLOWED", `Method ${c.req.method} not allowed`)), 405, {
          Allow: methods.join(", "),
        }),
    }),
  );
  app.notFound((c) =>
    c.json(errorBody(new AppError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`)), 404),
  );
  app.onError((err, c) => {
    const appErr = toAppError(err);
    const log = c.get("logger");
    if (appErr.status >= 500 && appErr.code === "INTERNAL_ERROR") {
      log?.error("unhandled error", { err: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) });
    }
    return c.json(errorBody(appErr), appErr.status, appErr.headers);
  });
  return app;
}
