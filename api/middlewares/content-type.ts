import type { MiddlewareHandler } from "hono";
import { AppError, validationError, type FieldIssue } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";

const JSON_RE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/** Deeper than any body the API defines (metadata included): beyond it a body is an attack, not data. */
export const MAX_JSON_DEPTH = 32;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What zod does not check in any route: lone UTF-16 surrogates (JSON can carry them as \udXXX
 * escapes; PostgreSQL would silently store U+FFFD instead) and absurd nesting (recursive code such
 * as the canonical JSON hash or jsonb would overflow). Iterative, so a 10k-deep body is no risk here.
 */
export function jsonBodyProblem(value: unknown): FieldIssue | null {
  const stack: [unknown, string, number][] = [[value, "body", 0]];
  while (stack.length > 0) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (LONE_SURROGATE.test(v)) return { field: path, reason: "contains a lone UTF-16 surrogate (not valid Unicode text)" };
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return { field: path, reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, `${path}.${i}`, depth + 1]));
      continue;
    }
    for (const [k, x] of Object.entries(v)) {
      if (LONE_SURROGATE.test(k)) return { field: path, reason: "a key contains a lone UTF-16 surrogate" };
      stack.push([x, `${path}.${k}`, depth + 1]);
    }
  }
  return null;
}

/**
 * A request that carries a body must carry JSON (415 otherwise); the JSON must be valid Unicode text and
 * at most MAX_JSON_DEPTH deep (400 with the field). Bodiless POSTs are fine.
 */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.method === "OPTIONS") return next();
  const length = c.req.header("Content-Length");
  const hasBody = (length !== undefined && length !== "0") || c.req.header("Transfer-Encoding") !== undefined;
  const type = c.req.header("Content-Type");
  if (hasBody && (!type || !JSON_RE.test(type))) {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Request body must be application/json");
  }
  if (hasBody) {
    let body: unknown;
    try {
      // A clone: proxies (/graphql) forward c.req.raw, whose body must stay unread.
      body = await c.req.raw.clone().json();
    } catch (err) {
      // Malformed JSON: the route's validator answers 400; anything else (body limit) propagates.
      if (err instanceof SyntaxError) return next();
      throw err;
    }
    const problem = jsonBodyProblem(body);
    if (problem) throw validationError([problem]);
  }
  await next();
};
