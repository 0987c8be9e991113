// The multipart evidence upload skips the global 64 KiB JSON body limit and the JSON content-type
// check (api/app.ts). Its own gate runs in their place, before any middleware that reads a body
// (idempotency): sign-in first, so an anonymous upload is refused unread, then the 5 MiB limit.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { AppError } from "../../lib/errors.ts";
import type { AppEnv } from "../../app-types.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { EVIDENCE_MAX_BYTES } from "../../services/evidence-store.ts";

const UPLOAD_RE = /^(\/v2)?\/resolver\/disputes\/[^/]+\/evidence\/?$/;

export const isEvidenceUpload = (method: string, path: string) => method === "POST" && UPLOAD_RE.test(path);

export const unlessEvidenceUpload =
  (mw: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> =>
  (c, next) =>
    isEvidenceUpload(c.req.method, c.req.path) ? next() : mw(c, next);

/** The file plus the multipart envelope; a longer body fails as it is read (chunked ones too). */
const evidenceBodyLimit = bodyLimit({
  maxSize: EVIDENCE_MAX_BYTES + 64 * 1024,
  onError: () => {
    throw new AppError("PAYLOAD_TOO_LARGE", `Evidence exceeds ${EVIDENCE_MAX_BYTES} bytes`);
  },
});
const evidenceGate = every(requireUser(), evidenceBodyLimit);

export const evidenceUploadGate = (): MiddlewareHandler<AppEnv> => (c, next) =>
  isEvidenceUpload(c.req.method, c.req.path) ? evidenceGate(c, next) : next();
