// Idempotency-Key on every POST: same key + same body -> the stored response (no second effect);
// same key + another body -> 422 IDEMPOTENCY_KEY_REUSED; same key still running -> 409
// IDEMPOTENCY_KEY_IN_USE. Keys are scoped per user, kept 24 h. Before sign-in only the public POSTs
// (sign-in, GraphQL) take a key, per client IP: an anonymous request to a signed-in route is refused
// by its route before anything reads its body. The body is read as bytes (within the limit the
// middlewares before this one set), which the route's own parser then reuses.
// An in-flight claim of a dead API process (its heartbeat stopped: kill -9) is taken over; the
// request then runs again under the same (scope, key), and the relayer resumes the transaction it
// recorded for that key instead of sending a second one (api/services/relayer/).
import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { canonicalJson } from "../lib/canonical-json.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { AppEnv } from "../app-types.ts";
import { mark } from "../lib/stage-trace.ts";
import { withIdempotencyScope } from "../services/relayer/index.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** An in-flight claim older than this is taken to be from a crashed process. */
const STALE_IN_FLIGHT_MS = 5 * 60 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** POST routes that answer without a token (the rest refuse an anonymous request themselves). */
const PUBLIC_POST_RE = /^(\/v2)?\/(auth\/message|auth\/verify|graphql)\/?$/;

function requestHash(method: string, path: string, body: ArrayBuffer, contentType: string | undefined): string {
  const h = createHash("sha256").update(`${method} ${path}\n`);
  if (contentType?.toLowerCase().startsWith("multipart/")) return h.update(new Uint8Array(body)).digest("hex");
  const text = new TextDecoder().decode(body);
  let normalized = text;
  try {
    normalized = text.trim() === "" ? "" : canonicalJson(JSON.parse(text));
  } catch {
    // not JSON: compare the raw text
  }
  return h.update(normalized).digest("hex");
}

export const idempotency = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const key = c.req.header("Idempotency-Key");
  if (c.req.method !== "POST" || key === undefined) return next();
  if (!KEY_RE.test(key)) {
    throw validationError([{ field: "header.Idempotency-Key", reason: "must be 1-255 visible ASCII characters" }]);
  }
  const user = c.get("user");
  if (!user && !PUBLIC_POST_RE.test(c.req.path)) return next();
  const repo = c.get("deps").repos.idempotency;
  const scope = user ? `user:${user.id}` : `ip:${c.get("clientIp")}`;
  const hash = requestHash(c.req.method, c.req.path.replace(/^\/v2(?=\/)/, ""), await c.req.arrayBuffer(), c.req.header("Content-Type"));

  let claim = await repo.claim(scope, key, hash, IDEMPOTENCY_TTL_MS);
  if (!claim.claimed && (await repo.reclaimIfStale(scope, key, STALE_IN_FLIGHT_MS))) {
    claim = await repo.claim(scope, key, hash, IDEMPOTENCY_TTL_MS);
  }
  mark("claim");
  if (!claim.claimed) {
    const row = await repo.find(scope, key);
    if (!row) throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is in progress");
    if (row.requestHash !== hash) {
      throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was used with a different request");
    }
    if (row.state !== "done") {
      throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key is in progress");
    }
    return new Response(row.responseBody, {
      status: row.responseStatus!,
      headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true" },
    });
  }

  try {
    // The claim read the request's recorded first send: the relayer takes it instead of a lookup.
    await withIdempotencyScope(scope, key, hash, () => next(), claim.recorded);
  } catch (err) {
    await repo.release(scope, key).catch(() => {});
    throw err;
  }
  // Server failures are not final: release the key so the client can retry with it.
  if (c.res.status >= 500) {
    await repo.release(scope, key);
    return;
  }
  mark("handler");
  const body = await c.res.clone().text();
  await repo.complete(scope, key, c.res.status, body);
  mark("complete");
};
