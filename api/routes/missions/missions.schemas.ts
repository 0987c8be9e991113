import { z } from "@hono/zod-openapi";
import { MAX_REWARD_UNITS, MISSION_STATES, MoneyError, formatAmount, parseAmount } from "../../../domain/index.ts";


export const amount = (min0: boolean, max?: bigint) =>
  z
    .string()
    .superRefine((v, ctx) => {
      try {
        const units = parseAmount(v);
        if (!min0 && units === 0n) ctx.addIssue({ code: "custom", message: "must be at least 0.000001" });
        if (max !== undefined && units > max) ctx.addIssue({ code: "custom", message: `must be at most ${formatAmount(max)}` });
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as MoneyError).message });
      }
    })
    .openapi({
      example: "25.000000",
      description: max === undefined ? "Decimal string, at most 6 fractional digits" : `Decimal string, at most 6 fractional digits, at most ${formatAmount(max)}`,
    });

const Location = z
  .object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    radius: z.number().positive().max(100_000).openapi({ description: "Meters" }),
  })
  .openapi("Location");

const Metadata = z.record(z.string(), z.unknown()).openapi({ description: "Free-form object" });
const Title = z.string().trim().min(1).max(100);
const Text = (max: number) => z.string().max(max);

const UserRef = z
  .string()
  .regex(/^(0x[0-9a-fA-F]{40}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, "must be a user id (uuid) or a 0x address");

export const IdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: "id", in: "path" }, example: "0b7c5f7e-1c8a-8d2e-9f00-0a1b2c3d4e5f" }),
});

export const ListQuery = z.object({
  state: z.enum(MISSION_STATES).optional(),
  category: z.string().max(100).optional(),
  guildId: z.string().max(100).optional(),
  // A user id (uuid) or an address: anything else would reach the users table as a bad uuid cast (500).
  posterId: UserRef.optional(),
  performerId: UserRef.optional(),
  minReward: amount(true).optional(),
  maxReward: amount(true).optional(),
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0),
  take: z.coerce.number().int().min(1).max(100).default(20),
  sortBy: z.enum(["createdAt", "rewardAmount", "expiresAt"]).default("createdAt"),
  sortOrder: z.enum(["asc", "desc"]).default("desc"),
});

export const CreateBody = z
  .object({
    title: Title,
    description: Text(5_000),
    rewardAmount: amount(false, MAX_REWARD_UNITS), // the escrow's MAX_REWARD
    category: z.string().trim().min(1).max(50),
    expiresIn: z.number().int().min(60).max(365 * 24 * 3600).openapi({ description: "Seconds until expiry (60 s to 365 days)" }),
    location: Location.optional(),
    guildId: z.string().max(100).optional(),
    metadata: Metadata.optional(),
    minReputation: z.number().int().min(0).max(1_000_000_000).optional()
      .openapi({ description: "The reputation (sum of the rating deltas the performer received) needed to accept; none when absent" }),
    premium: z.boolean().optional()
      .openapi({ description: "A premium mission (default false): posting and accepting it need level 6 (the premium_missions unlock)" }),
  })
  .openapi("CreateMission");

export const PatchBody = z
  .object({
    title: Title.optional(),
    description: Text(5_000).optional(),
    category: z.string().trim().min(1).max(50).optional(),
    location: Location.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, "at least one of title, description, category, location, metadata")
  .openapi("PatchMission");

export const SubmitBody = z
  .object({
    proofType: z.enum(["url", "ipfs", "text"]),
    proofData: z.string().min(1).max(2_048),
    notes: Text(2_000).optional(),
  })
  .superRefine((b, ctx) => {
    const ok =
      b.proofType === "url" ? /^https?:\/\/\S+$/.test(b.proofData) : b.proofType === "ipfs" ? /^ipfs:\/\/\S+$/.test(b.proofData) : true;
    if (!ok) ctx.addIssue({ code: "custom", path: ["proofData"], message: `must be a ${b.proofType === "url" ? "http(s) URL" : "ipfs:// URI"}` });
  })
  .openapi("SubmitProof");

export const ApproveBody = z
  .object({
    rating: z.number().int().min(1).max(5).optional().openapi({ description: "The poster's rating of the performer (as POST /ratings/mission/{id})" }),
    feedback: Text(2_000).optional().openapi({ description: "With `rating`: the rating's comment (kept off-chain, at most 1000 characters)" }),
  })
  // The rating's comment has the ratings route's bound; refused before anything is sent.
  .superRefine((b, ctx) => {
    if (b.rating !== undefined && (b.feedback?.length ?? 0) > 1_000) {
      ctx.addIssue({ code: "custom", path: ["feedback"], message: "must be at most 1000 characters when rating is given" });
    }
  })
  .openapi("ApproveMission");

/** The rating recorded by an approve with `rating` (the same record as POST /ratings/mission/{id}). */
export const ApprovalRating = z
  .object({
    id: z.string(), missionId: z.string(), raterId: z.string(), rateeId: z.string(), score: z.number(), comment: z.string(),
    signature: z.string(), easUid: z.string(), onChainTxHash: z.string(), isOnChain: z.boolean(), explorerUrl: z.string(), createdAt: z.string(),
  })
  .openapi("ApprovalRating");

export const DisputeBody = z
  .object({ reason: z.string().trim().min(1).max(2_000), evidence: z.string().max(2_048).optional() })
  .openapi("RaiseDispute");

const Party = z.object({ id: z.string(), evmAddress: z.string(), resolvedName: z.string() });
export const MissionList = z
  .object({
    id: z.string(),
    onChainId: z.string(),
    title: z.string(),
    description: z.string(),
    state: z.enum(MISSION_STATES),
    category: z.string(),
    rewardAmount: z.string(),
    poster: Party,
    performer: Party.nullable(),
    guild: z.object({ id: z.string(), name: z.string() }).nullable(),
    location: Location.nullable(),
    expiresAt: z.string(),
    createdAt: z.string(),
    minReputation: z.number().int().nullable().openapi({ description: "Reputation needed to accept; null: none" }),
    premium: z.boolean().openapi({ description: "Accepting needs level 6 (premium_missions)" }),
    releasedAmount: z.string().openapi({ description: "Released to the performer so far by partial releases (gross, decimal string)" }),
    refundedAmount: z.string().openapi({ description: "Refunded to the poster so far by partial refunds (decimal string)" }),
    remainingAmount: z.string().openapi({ description: "Still held in escrow for the mission: reward − released − refunded while open, 0 once it ended" }),
  })
  .openapi("MissionListItem");

export const Mission = MissionList.extend({
  escrowAddress: z.string(),
  ddrAmount: z.string(),
  proofHash: z.string().nullable(),
  metadata: Metadata,
  acceptedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  refundAmount: z.string().nullable().openapi({ description: "Returned to the poster on Cancelled or Expired (decimal string); null otherwise" }),
}).openapi("Mission");

export const Settlement = z
  .object({
    performerAmount: z.string(),
    protocolAmount: z.string(),
    guildAmount: z.string(),
    labsAmount: z.string(),
    resolverAmount: z.string(),
  })
  .openapi("Settlement");
