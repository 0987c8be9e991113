import { createRoute, z } from "@hono/zod-openapi";
import { AddressSchema, errorResponses, publicAccess } from "../../lib/openapi-schemas.ts";

const tags = ["Auth"];

export const message = createRoute({
  method: "post",
  path: "/auth/message",
  operationId: "createSignInMessage",
  security: publicAccess,
  tags,
  summary: "Get a Sign-In with Ethereum (EIP-4361) message to sign",
  request: {
    body: { required: true, content: { "application/json": { schema: z.object({ address: AddressSchema }) } } },
  },
  responses: {
    200: {
      description: "The message to sign; valid for 5 minutes, single use",
      content: { "application/json": { schema: z.object({ message: z.string() }) } },
    },
    ...errorResponses(400, 429),
  },
});

export const verify = createRoute({
  method: "post",
  path: "/auth/verify",
  operationId: "verifySignIn",
  security: publicAccess,
  tags,
  summary: "Exchange a signed sign-in message for a session token (24 h)",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.object({
            address: AddressSchema,
            signature: z.string().regex(/^0x[0-9a-fA-F]+$/, "must be a 0x-prefixed hex signature").max(20_000),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: "A bearer token (HS256 JWT)",
      content: { "application/json": { schema: z.object({ token: z.string() }) } },
    },
    ...errorResponses(400, 401, 429, 503),
  },
});
