// Schemas shared by several resources: the error envelope and common parameters.
import { z } from "@hono/zod-openapi";
import { isAddress } from "viem";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "VALIDATION_ERROR" }),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), reason: z.string() })).optional(),
    }),
  })
  .openapi("Error");

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [s, { description: `Error ${s}`, content: { "application/json": { schema: ErrorSchema } } }]),
  );

export const AddressSchema = z
  .string()
  .refine((v) => isAddress(v, { strict: false }), "must be a 0x-prefixed 20-byte address")
  .openapi({ example: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });

// Every operation states who may call it (the document's readers and client generators rely on it).
/** Signed-in only: `Authorization: Bearer <token>` from POST /auth/verify. */
export const bearer = [{ bearerAuth: [] }];
/** Anyone; a token is not needed (a bad one is still refused with 401). */
export const publicAccess: { [scheme: string]: string[] }[] = [];
/** Anyone; with a token the answer also covers the caller (their membership, role filters, exact locations). */
export const optionalBearer: { [scheme: string]: string[] }[] = [{}, { bearerAuth: [] }];
