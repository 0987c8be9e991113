import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { Event, RegisterBody } from "./webhooks.schemas.ts";

const tags = ["Webhooks"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };

const Endpoint = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledAt: z.string().nullable(),
    disabledReason: z.string().nullable(),
    previousSecretExpiresAt: z.string().nullable().openapi({ description: "While set, the rotated-out secret still signs too" }),
    createdAt: z.string(),
  })
  .openapi("WebhookEndpoint");

const Attempt = z
  .object({
    id: z.string(),
    messageId: z.string().openapi({ description: "The webhook-id header; the same on every retry" }),
    event: Event,
    attempt: z.number().int(),
    status: z.enum(["succeeded", "failed", "gave_up"]),
    responseCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    nextRetryAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("WebhookAttempt");

const IdParam = z.object({ id: z.string().uuid() });

export const register = createRoute({
  method: "post", path: "/webhooks", operationId: "createWebhook", tags, summary: "Register an endpoint (the secret is shown only here)", ...auth,
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: RegisterBody,
        },
      },
    },
  },
  responses: {
    201: json(
      z.object({ id: z.string().uuid(), url: z.string(), events: z.array(Event), description: z.string().nullable(), secret: z.string(), createdAt: z.string() }),
      "Registered",
    ),
    ...errorResponses(400, 401, 429),
  },
});

export const list = createRoute({
  method: "get", path: "/webhooks", operationId: "listWebhooks", tags, summary: "The caller's endpoints (no secrets)", ...auth,
  responses: { 200: json(z.object({ webhooks: z.array(Endpoint) }), "The caller's endpoints"), ...errorResponses(401, 429) },
});

export const deliveries = createRoute({
  method: "get", path: "/webhooks/{id}/deliveries", operationId: "listWebhookDeliveries", tags,
  summary: "Recent delivery attempts, newest first (status, response code, duration, next retry)", ...auth,
  request: { params: IdParam },
  responses: { 200: json(z.object({ webhook: Endpoint, deliveries: z.array(Attempt) }), "Attempts"), ...errorResponses(400, 401, 404, 429) },
});

export const remove = createRoute({
  method: "delete", path: "/webhooks/{id}", operationId: "deleteWebhook", tags, summary: "Remove an endpoint (owner only)", ...auth,
  request: { params: IdParam },
  responses: { 200: json(z.object({ success: z.boolean(), id: z.string() }), "Removed"), ...errorResponses(400, 401, 404, 429) },
});

export const rotate = createRoute({
  method: "post", path: "/webhooks/{id}/rotate-secret", operationId: "rotateWebhookSecret", tags,
  summary: "Issue a new secret; the old one keeps signing beside it for 24 h", ...auth,
  request: { params: IdParam },
  responses: {
    200: json(z.object({ id: z.string(), secret: z.string(), previousSecretExpiresAt: z.string() }), "Rotated"),
    ...errorResponses(400, 401, 404, 429),
  },
});
