import { z } from "@hono/zod-openapi";
import { MISSION_STATES, MoneyError, parseAmount } from "../../../domain/index.ts";

const num = (min: number, max: number) => z.coerce.number().refine(Number.isFinite, "must be a number").pipe(z.number().min(min).max(max));
const lat = num(-90, 90);
const lng = num(-180, 180);
const amount = z
  .string()
  .superRefine((v, ctx) => {
    try {
      parseAmount(v);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as MoneyError).message });
    }
  })
  .openapi({ example: "10.5", description: "Stablecoin units, decimal string (at most 6 decimals)" });

export const FeedQuery = z.object({
  latitude: lat.optional(),
  longitude: lng.optional(),
  category: z.string().max(100).optional(),
  guildId: z.string().max(100).optional(),
  searchQuery: z.string().min(1).max(200).optional(),
  sortBy: z.enum(["relevance", "reward", "distance", "urgency"]).default("relevance"),
  skip: z.coerce.number().int().min(0).max(10_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(20),
});

const Party = z.object({ id: z.string(), evmAddress: z.string(), resolvedName: z.string() });
const ViewedLocation = z
  .object({ latitude: z.number(), longitude: z.number(), geohash: z.string(), precision: z.number().openapi({ description: "0 exact (poster, performer), 2 neighborhood (geohash-6 cell center)" }) })
  .openapi("ViewedLocation");

export const FeedResponse = z.object({
  missions: z.array(
    z.object({
      mission: z.object({
        id: z.string(), title: z.string(), category: z.string(),
        rewardAmount: z.string().openapi({ description: "Integer string of base units (6 decimals)", example: "12500000" }),
        expiresAt: z.string(), poster: Party, guild: z.object({ id: z.string(), name: z.string() }).nullable(),
        location: ViewedLocation.nullable(),
        minReputation: z.number().int().nullable().openapi({ description: "Reputation needed to accept; null: none" }),
        premium: z.boolean().openapi({ description: "Accepting needs level 6 (premium_missions)" }),
      }),
      factors: z.object({
        eligibility: z.boolean().openapi({ description: "Whether POST /missions/{id}/accept would pass its eligibility rule for the reader" }), rewardScore: z.number(), urgencyScore: z.number(), distanceScore: z.number(),
        xpMatchScore: z.number(), guildBoost: z.number(), posterReputationScore: z.number(),
        categoryPreferenceScore: z.number(), finalScore: z.number(),
      }),
      rank: z.number(),
    }),
  ),
  total: z.number().openapi({ description: "Matches the feed ranks and pages through (exact)" }),
  totalCapped: z.boolean().openapi({ description: "Always false: totals are exact at any size (kept so clients written against the capped totals keep working)" }),
}).openapi("Feed");

export const ViewBody = z.object({
  missionId: z.string().min(1).max(100),
  dwellMs: z.number().int().min(0).max(3_600_000).default(0).openapi({ description: "Time the mission was on screen" }),
}).openapi("FeedView");

export const SearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  state: z.enum(MISSION_STATES).optional(),
  category: z.string().max(100).optional(),
  guildId: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const SearchResponse = z.object({
  results: z.array(z.object({
    id: z.string(), title: z.string(), description: z.string(), relevanceScore: z.number(),
    highlightedTitle: z.string().openapi({ description: "HTML: matches in <em>, everything else escaped" }),
  })),
  query: z.string(),
  total: z.number().openapi({ description: "Matching missions (exact)" }),
  totalCapped: z.boolean().openapi({ description: "Always false: totals are exact at any size (kept so clients written against the capped totals keep working)" }),
}).openapi("SearchResults");

export const NearbyQuery = z.object({
  latitude: lat,
  longitude: lng,
  radius: num(1, 50_000).default(5000).openapi({ description: "Meters, max 50 km" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  category: z.string().max(100).optional(),
  guildId: z.string().max(100).optional(),
  minReward: amount.optional(),
  maxReward: amount.optional(),
});

const Bounds = z.object({ north: z.number(), south: z.number(), east: z.number(), west: z.number() });
export const NearbyResponse = z.object({
  missions: z.array(z.object({
    id: z.string(), title: z.string(), category: z.string(),
    rewardAmount: z.string().openapi({ description: "Integer string of base units" }),
    guildId: z.string(), guildName: z.string(), expiresAt: z.string(),
    distance: z.number().openapi({ description: "Meters from the query point to the exact location" }),
    isEligible: z.boolean().openapi({ description: "The rule POST /missions/{id}/accept applies (guild, minGuildXP, minReputation, level); signed out: as a user with no guild, reputation 0, level 1" }),
    location: ViewedLocation,
    minReputation: z.number().int().nullable(), premium: z.boolean(),
  })),
  clusters: z.array(z.object({ latitude: z.number(), longitude: z.number(), count: z.number(), expansionZoom: z.number(), bounds: Bounds })),
  totalCount: z.number().openapi({ description: "Open missions within the radius (exact; the clusters cover all of them)" }),
  totalCapped: z.boolean().openapi({ description: "Always false: totals are exact at any size (kept so clients written against the capped totals keep working)" }),
  bounds: Bounds,
}).openapi("NearbyMissions");

export const IdParam = z.object({ id: z.string().min(1).max(100).openapi({ param: { name: "id", in: "path" } }) });
export const PresenceBody = z.object({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().min(0).max(100_000).openapi({ description: "Meters (GPS accuracy). Worse than 100 m never verifies." }),
}).openapi("PresenceCheck");
export const PresenceResponse = z.object({
  verified: z.boolean(), distanceFromMission: z.number(), withinGeofence: z.boolean(), geofenceRadius: z.number(), graceApplied: z.boolean(),
}).openapi("PresenceResult");
