import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema, errorResponses, publicAccess } from "../../lib/openapi-schemas.ts";

const tags = ["System"];

const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded", "unavailable"]).openapi({ description: "degraded: serving, but a relayer key is below RELAYER_MIN_BALANCE_WEI (see checks.relayer)" }),
    checks: z.object({
      database: z.boolean(),
      indexer: z.object({ ready: z.boolean(), block: z.string().nullable() }),
      feedIndex: z
        .object({ ready: z.boolean(), missions: z.number().int() })
        .openapi({ description: "The in-memory feed ranking of this copy: loaded at start in the background (about 12 s per million open missions); until ready, the first /feed waits for it. Does not affect status" }),
      relayer: z
        .array(
          z.object({
            address: z.string(),
            balanceWei: z.string().nullable().openapi({ description: "Last read ETH balance in wei (decimal); null: never read" }),
            low: z.boolean().openapi({ description: "Below RELAYER_MIN_BALANCE_WEI" }),
            empty: z.boolean().openapi({ description: "Cannot pay for one transaction: out of the pool" }),
          }),
        )
        .openapi({ description: "One entry per relayer key; empty when no contracts are deployed" }),
    }),
  })
  .openapi("Health");

export const health = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  security: publicAccess,
  tags,
  summary: "200 once the database answers and the indexer has caught up (status degraded when a relayer key runs low on ETH), else 503",
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
    503: {
      description: "Not ready",
      content: { "application/json": { schema: ErrorSchema.extend({ checks: HealthSchema.shape.checks }) } },
    },
    // Probes are not rate limited, but a malformed or revoked bearer token is refused like anywhere else.
    ...errorResponses(401),
  },
});

const Address = z.string().openapi({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });
export const config = createRoute({
  method: "get",
  path: "/config",
  operationId: "getConfig",
  security: publicAccess,
  tags,
  summary: "Chain id, RPC URL, contract addresses and the rating schema",
  responses: {
    200: {
      description: "Public configuration for clients",
      content: {
        "application/json": {
          schema: z
            .object({
              chainId: z.number(),
              rpcUrl: z.string(),
              relayer: Address.nullable(),
              contracts: z.record(z.string(), Address),
              ratingSchemaUid: z.string().nullable(),
              explorerUrl: z
                .string()
                .nullable()
                .openapi({ description: "EAS explorer of this chain (<explorerUrl>/attestation/view/<uid>); null: use GET /ratings/:id/verify", example: "https://base-sepolia.easscan.org" }),
            })
            .openapi("Config"),
        },
      },
    },
    ...errorResponses(401, 429),
  },
});
