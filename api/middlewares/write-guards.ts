// What only a request that may carry a body passes (the request path skips it for GET and HEAD):
// the body limit and the JSON content type (both skipped by the multipart evidence upload, which has
// its own gate), the evidence upload's gate, and Idempotency-Key on POSTs.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { AppError, errorBody } from "../lib/errors.ts";
import type { Env } from "../env.ts";
import type { AppEnv } from "../app-types.ts";
import { evidenceUploadGate, unlessEvidenceUpload } from "../routes/disputes/disputes.paths.ts";
import { requireJsonBody } from "./content-type.ts";
import { idempotency } from "./idempotency.ts";

export function writeGuards(env: Pick<Env, "BODY_LIMIT_BYTES">): MiddlewareHandler<AppEnv> {
  const limitBody = bodyLimit({
    maxSize: env.BODY_LIMIT_BYTES,
    onError: (c) =>
      c.json(errorBody(new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${env.BODY_LIMIT_BYTES} bytes`)), 413),
  });
  return every(unlessEvidenceUpload(limitBody), unlessEvidenceUpload(requireJsonBody()), evidenceUploadGate(), idempotency());
}
