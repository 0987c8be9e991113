// The multipart evidence upload skips the global 64 KiB JSON body limit and the JSON content-type
// check (api/app.ts); its route applies its own limit (5 MiB file) and multipart parser.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../lib/types.ts";

const UPLOAD_RE = /^(\/v2)?\/resolver\/disputes\/[^/]+\/evidence\/?$/;

export const isEvidenceUpload = (method: string, path: string) => method === "POST" && UPLOAD_RE.test(path);

export const unlessEvidenceUpload =
  (mw: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    isEvidenceUpload(c.req.method, c.req.path) ? next() : mw(c, next);
