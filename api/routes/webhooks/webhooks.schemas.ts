// Inputs of the webhook routes: the routes validate with them and the webhooks service takes what they infer.
import { z } from "@hono/zod-openapi";
import { WEBHOOK_EVENTS } from "../../services/webhooks/events.ts";

const Url = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .url("must be an absolute URL")
  .refine((u) => /^https?:\/\//i.test(u), "must be an http or https URL")
  .refine((u) => { try { const x = new URL(u); return !x.username && !x.password; } catch { return false; } }, "must not carry credentials")
  .openapi({ example: "https://example.com/hooks/missions" });
export const Event = z.enum(WEBHOOK_EVENTS);

export const RegisterBody = z
  .object({ url: Url, events: z.array(Event).min(1).max(WEBHOOK_EVENTS.length * 2), description: z.string().max(500).optional() })
  .strict();
