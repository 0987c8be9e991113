import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";

const tags = ["Wallet"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/, "must be 0x-prefixed hex");
const Step = z
  .object({
    id: z.enum(["operator", "allowance"]),
    done: z.boolean(),
    typedData: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "EIP-712 { domain, types, primaryType, message } for eth_signTypedData_v4 (integers as decimal strings); absent when done, or for a contract account's allowance (approve the escrow with a call)" }),
  })
  .openapi("WalletSetupStep");
const Status = z.object({ ready: z.boolean(), steps: z.array(Step) }).openapi("WalletSetupStatus");
const Result = z.object({ ready: z.boolean(), transactionHashes: z.array(z.string()) }).openapi("WalletSetupResult");
const Signature = z
  .object({
    id: z.enum(["operator", "allowance"]),
    message: z.record(z.string(), z.unknown()).openapi({ description: "The typed data's message, echoed as received" }),
    signature: Hex.min(4),
  })
  .strict();
export const SetupBody = z
  .object({ signatures: z.array(Signature).min(1).max(2) })
  .strict()
  .openapi("WalletSetupSignatures");

export const getSetup = createRoute({
  method: "get", path: "/wallet/setup", tags, operationId: "getWalletSetup", ...auth,
  summary: "What the caller's wallet must sign so that the service can act for it (gasless)",
  responses: { 200: json(Status, "One step per authorisation; ready when all are done"), ...errorResponses(401, 429, 503) },
});
export const postSetup = createRoute({
  method: "post", path: "/wallet/setup", tags, operationId: "postWalletSetup", ...auth,
  summary: "Relay the signed authorisations (the service pays the gas); answers once they are indexed",
  request: { body: { required: true, content: { "application/json": { schema: SetupBody } } } },
  responses: { 200: json(Result, "Relayed (or already in effect)"), ...errorResponses(400, 401, 409, 429, 503) },
});
export const deleteSetup = createRoute({
  method: "delete", path: "/wallet/setup", tags, operationId: "deleteWalletSetup", ...auth,
  summary: "Revoke the service's operator approval for the caller's wallet",
  responses: { 200: json(Result, "Revoked (or was not approved)"), ...errorResponses(401, 429, 503) },
});
export const faucet = createRoute({
  method: "post", path: "/faucet", tags, operationId: "postFaucet", ...auth,
  summary: "1,000 test stablecoin to the caller, once per hour (local chain, or FAUCET_ENABLED with the test token)",
  responses: {
    200: json(z.object({ amount: z.string(), transactionHash: z.string() }).openapi("FaucetPayout"), "Minted"),
    ...errorResponses(401, 404, 429, 503),
  },
});
