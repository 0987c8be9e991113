// HTTP hardening: secure headers (hono/secure-headers), a configurable CORS policy (hono/cors,
// CORS_ORIGINS) and a Content-Security-Policy per kind of response, and the mapping of a lost
// database connection to 503 DATABASE_UNAVAILABLE (a clear, retryable answer instead of a 500).
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { AppError, errorBody } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";

/** JSON (and files): nothing may be loaded or framed. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const securityHeaders = (): MiddlewareHandler<AppEnv> =>
  secureHeaders({
    // CSP is set by htmlPolicy() below (it depends on the page); CORP stays same-origin: a browser app on
    // another origin reads the API with CORS-mode fetch, which CORP does not affect.
    xFrameOptions: "DENY",
    strictTransportSecurity: "max-age=31536000; includeSubDomains",
  });

/**
 * CORS from CORS_ORIGINS: [] -> no Access-Control-Allow-Origin at all (same-origin only), ["*"] -> any origin,
 * else the listed origins. Tokens travel in Authorization, never in cookies, so no credentials mode.
 */
export const corsPolicy = (origins: string[]): MiddlewareHandler<AppEnv> => {
  if (origins.length === 0) return async (_c, next) => next();
  return cors({
    origin: origins.includes("*") ? "*" : origins,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id"],
    exposeHeaders: [
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
      "Retry-After",
      "X-Request-Id",
      "Idempotent-Replayed",
      "Content-Disposition",
    ],
    maxAge: 600,
  });
};

const sha256 = (s: string) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;

/**
 * The CSP of an HTML page, derived from the page itself: its inline scripts by hash, and the hosts its
 * <script src>/<link href> load from. /docs (Swagger UI, local assets + one inline script) and
 * any other page keep working without 'unsafe-inline' for scripts.
 */
export function htmlCsp(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => sha256(m[1]!));
  const hosts = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)=["'](https:\/\/[^/"']+)/gi)) hosts.add(m[1]!);
  const ext = [...hosts].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' ${inline.join(" ")} ${ext}`.trim(),
    `style-src 'self' 'unsafe-inline' ${ext}`.trim(),
    `font-src 'self' data: ${ext}`.trim(),
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

export const contentSecurityPolicy = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  // A page that states its own policy (GraphiQL) keeps it.
  if (c.res.headers.has("Content-Security-Policy")) return;
  const type = c.res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) {
    const html = await c.res.clone().text();
    c.res.headers.set("Content-Security-Policy", htmlCsp(html));
  } else {
    c.res.headers.set("Content-Security-Policy", API_CSP);
  }
};

// --- database outages ------------------------------------------------------------------------------

const PG_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up / shutting down)
]);
const PG_DOWN_MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/** True when `err` (or a cause) says PostgreSQL cannot be reached right now. */
export function isDatabaseDown(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === "string" && (PG_DOWN_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  if (typeof e.message === "string" && PG_DOWN_MESSAGES.some((r) => r.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseDown(x, depth + 1))) return true;
  return isDatabaseDown(e.cause, depth + 1);
}

/**
 * Outermost: an error that the app turned into a 500 but whose cause is a lost database connection
 * becomes 503 DATABASE_UNAVAILABLE with Retry-After. The pool drops broken connections and opens new
 * ones, so the API recovers by itself once PostgreSQL is back.
 */
export const databaseOutage = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  await next();
  if (c.res.status === 500 && c.error && isDatabaseDown(c.error)) {
    const headers = new Headers(c.res.headers);
    headers.set("Content-Type", "application/json");
    headers.set("Retry-After", "5");
    c.res = new Response(
      JSON.stringify(errorBody(new AppError("DATABASE_UNAVAILABLE", "The database is unavailable; retry shortly"))),
      { status: 503, headers },
    );
  }
};
