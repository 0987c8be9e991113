import { createRoute, z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../lib/openapi-schemas.ts";

const tags = ["System"];

const HealthSchema = z
  .object({
    status: z.enum(["ok", "unavailable"]),
    checks: z.object({
      database: z.boolean(),
      indexer: z.object({ ready: z.boolean(), block: z.string().nullable() }),
    }),
  })
  .openapi("Health");

export const health = createRoute({
  method: "get",
  path: "/health",
  tags,
  summary: "200 once the database answers and the indexer has caught up, else 503",
  responses: {
    200: { description: "Healthy", content: { "application/json": { schema: HealthSchema } } },
    503: {
      description: "Not ready",
      content: { "application/json": { schema: ErrorSchema.extend({ checks: HealthSchema.shape.checks }) } },
    },
  },
});

const Address = z.string().openapi({ example: "0x5FbDB2315678afecb367f032d93F642f64180aa3" });
export const config = createRoute({
  method: "get",
  path: "/config",
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
            })
            .openapi("Config"),
        },
      },
    },
  },
});
