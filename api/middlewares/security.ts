// HTTP hardening, as data the request path (request-path.ts) writes once per response: the secure
// headers (hono/secure-headers' set), the API's Content-Security-Policy and the one of an HTML page
// (htmlCsp), a configurable CORS policy (CORS_ORIGINS; preflights by hono/cors), and the mapping of a
// lost database connection to 503 DATABASE_UNAVAILABLE (a clear, retryable answer instead of a 500).
import { createHash } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { AppError, errorBody } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";

/** JSON (and files): nothing may be loaded or framed. HTML pages state their own (htmlCsp below). */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The headers every response carries: the set OWASP's REST Security Cheat Sheet names for an API
 * (HSTS, nosniff, X-Frame-Options DENY, a CSP that loads and frames nothing) with hono/secure-headers'
 * values, plus its no-referrer and CORP same-origin (a browser app on another origin reads the API with
 * CORS-mode fetch, which CORP does not affect). Written once per response by
 * api/middlewares/request-path.ts; a page that states its own CSP keeps it.
 */
export const SECURE_HEADERS: readonly (readonly [string, string])[] = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Content-Security-Policy", API_CSP],
];

/**
 * The rest of hono/secure-headers' set: headers a browser reads only on a document it renders (the
 * browsing context group, the process isolation, DNS prefetching, old IE and Flash/PDF behaviours),
 * so the HTML pages (/docs, GraphiQL) send them beside their CSP and JSON does not carry them
 * (docs/decisions.md "B1: names on the user row, the envelope in SQL, document headers on documents only").
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "X-DNS-Prefetch-Control": "off",
  "X-Download-Options": "noopen",
  "X-Permitted-Cross-Domain-Policies": "none",
  "X-XSS-Protection": "0",
};

const EXPOSED = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After", "X-Request-Id", "Idempotent-Replayed", "Content-Disposition"];

/**
 * CORS from CORS_ORIGINS: [] -> no Access-Control-Allow-Origin at all (same-origin only), ["*"] -> any origin,
 * else the listed origins. Tokens travel in Authorization, never in cookies, so no credentials mode.
 * `preflight` answers OPTIONS (hono/cors); `headers(origin)` are a simple request's, as hono/cors sets them
 * (both null without origins).
 */
export function corsPolicy(origins: string[]): {
  preflight: MiddlewareHandler<AppEnv> | null;
  headers: ((origin: string | undefined) => [string, string][]) | null;
} {
  if (origins.length === 0) return { preflight: null, headers: null };
  const any = origins.includes("*");
  const expose = EXPOSED.join(",");
  const preflight = cors({
    origin: any ? "*" : origins,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "X-Request-Id"],
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });
  const anyHeaders: [string, string][] = [["Access-Control-Allow-Origin", "*"], ["Access-Control-Expose-Headers", expose]];
  const denied: [string, string][] = [["Access-Control-Expose-Headers", expose], ["Vary", "Origin"]];
  const allowed = new Map(origins.map((o): [string, [string, string][]] => [o, [["Access-Control-Allow-Origin", o], ...denied]]));
  return { preflight, headers: (origin) => (any ? anyHeaders : (origin !== undefined && allowed.get(origin)) || denied) };
}

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
 * Run last on every response (request-path.ts): an error that the app turned into a 500 but whose cause
 * is a lost database connection becomes 503 DATABASE_UNAVAILABLE with Retry-After. The pool drops broken
 * connections and opens new ones, so the API recovers by itself once PostgreSQL is back.
 */
export function mapDatabaseOutage(c: Context<AppEnv>): void {
  if (c.error && c.res.status === 500 && isDatabaseDown(c.error)) {
    const headers = new Headers(c.res.headers);
    headers.set("Content-Type", "application/json");
    headers.set("Retry-After", "5");
    c.res = new Response(
      JSON.stringify(errorBody(new AppError("DATABASE_UNAVAILABLE", "The database is unavailable; retry shortly"))),
      { status: 503, headers },
    );
  }
}
