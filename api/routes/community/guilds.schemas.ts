// Inputs of the guild routes: the routes validate with them and the guilds service takes what they infer.
import { z } from "@hono/zod-openapi";

export const CreateGuildBody = z.object({
  name: z.string().regex(/^[a-z0-9](?:[a-z0-9-]{1,30})[a-z0-9]$/, "3 to 32 of a-z, 0-9 and -, not starting or ending with -")
    .openapi({ description: "The registry's unique name (also the display name)", example: "night-couriers" }),
  description: z.string().max(1000).default(""),
  category: z.string().trim().min(1).max(50),
  guildFeeBps: z.number().int().min(0).max(1000).openapi({ description: "The guild's share of its missions' rewards (at most 1000 = 10 %)" }),
  minReputation: z.number().int().min(-1_000_000).max(1_000_000).optional()
    .openapi({ description: "Membership criterion: joining needs at least this reputation" }),
});

export const GuildListQuery = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  take: z.coerce.number().int().min(1).max(100).default(20),
  category: z.string().min(1).max(50).optional(),
});

export const PublishBody = z.object({
  missionId: z.string().min(1).max(64),
  notes: z.string().max(1000).default(""),
  minGuildXP: z.number().int().min(0).max(4_294_967_295).default(0),
  featured: z.boolean().default(false),
});

export const RolesBody = z.object({ isCurator: z.boolean().optional(), isOfficer: z.boolean().optional() })
  .refine((b) => b.isCurator !== undefined || b.isOfficer !== undefined, { message: "give isCurator, isOfficer or both" });
