// Request and response schemas of the Users, Ratings, XP and NFT groups (spec shapes).
import { z } from "@hono/zod-openapi";
import { decodeSolanaAddress } from "../../services/profile/solana.ts";
import { LEVEL_UNLOCKS, type Unlock } from "../../../domain/unlocks.ts";

const pathParam = (name: string, example: string) =>
  z.string().min(1).max(100).openapi({ param: { name, in: "path" }, example, description: "API user id (uuid) or 0x address" });
export const IdParam = z.object({ id: pathParam("id", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8") });
export const UserIdParam = z.object({ userId: pathParam("userId", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8") });
export const MissionIdParam = z.object({
  missionId: z.string().min(1).max(100).openapi({ param: { name: "missionId", in: "path" }, description: "Mission id (uuid) or on-chain id" }),
});
export const RatingIdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: "id", in: "path" }, description: "Rating id (uuid) or EAS uid" }),
});

const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) URL");

export const PatchMeBody = z
  .object({
    displayName: z.string().trim().min(1).max(50).optional(),
    bio: z.string().max(500).optional(),
    avatar: z.union([z.literal(""), httpUrl]).optional().openapi({ description: "http(s) URL, or \"\" to clear" }),
  })
  .strict()
  .refine((b) => b.displayName !== undefined || b.bio !== undefined || b.avatar !== undefined, "at least one of displayName, bio, avatar")
  .openapi("PatchMe");

export const Score = z.number().int().min(1).max(5);
export const Comment = z.string().max(1000).default("").openapi({ description: "Kept off-chain; the attestation holds its keccak256" });
export const RateBody = z.object({ score: Score, comment: Comment }).openapi("RateMission");
export const PostRatingBody = z.object({ missionId: z.string().min(1).max(100), score: Score, comment: Comment }).openapi("PostRating");

export const LinkSolanaBody = z
  .object({
    solanaAddress: z.string().max(64).refine((v) => decodeSolanaAddress(v) !== null, "must be a base58 ed25519 public key (32 bytes)"),
    signature: z.string().min(1).max(200).openapi({ description: "ed25519 signature of the link message: base58, 0x-hex or base64 (64 bytes)" }),
  })
  .openapi("LinkSolana");
export const LinkMessageQuery = z.object({
  solanaAddress: z.string().max(64).refine((v) => decodeSolanaAddress(v) !== null, "must be a base58 ed25519 public key (32 bytes)"),
});

export const LedgerQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const LeaderboardQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  type: z.enum(["global", "builders"]).default("global"),
});
export const BuildersQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

// ---- responses
/** A field its owner's vault hides from this viewer is null (docs/decisions.md "Privacy"). */
const hideable = (s: z.ZodString) => s.nullable().openapi({ description: "null when the user's privacy settings hide it from the caller" });
export const User = z
  .object({
    id: z.string(), evmAddress: z.string(), solanaAddress: z.string().nullable(), displayName: hideable(z.string()), avatar: z.string(), bio: hideable(z.string()),
    globalXP: z.number(), reputation: z.number(),
    totalEarned: z.string().openapi({ description: "Integer string, stablecoin base units (6 decimals)" }),
    totalSpent: z.string().openapi({ description: "Integer string, stablecoin base units (6 decimals)" }),
    createdAt: z.string().nullable(), lastActiveAt: z.string().nullable(),
  })
  .openapi("User");
const UNLOCKS = LEVEL_UNLOCKS.map((u) => u.unlock) as [Unlock, ...Unlock[]];
export const Me = User.extend({
  unlocks: z.array(z.enum(UNLOCKS)).openapi({ description: "What the caller's level unlocks (the spec's phase table); every level gate reads the same table" }),
}).openapi("Me");
export const UserStats = z
  .object({ missionsPosted: z.number(), missionsCompleted: z.number(), ratingCount: z.number(), averageRating: z.number(), disputesWon: z.number(), disputesLost: z.number() })
  .openapi("UserStats");
const Party = z.object({ id: z.string(), displayName: hideable(z.string()) });
const PartyFull = Party.extend({ evmAddress: z.string() });
export const RatingProfile = z
  .object({ id: z.string(), missionId: z.string(), rater: Party, ratee: Party, score: z.number(), comment: z.string(), createdAt: z.string() })
  .openapi("RatingProfile");
export const RatingOnChain = z
  .object({
    id: z.string(), missionId: z.string(), raterId: z.string(), rateeId: z.string(), score: z.number(), comment: z.string(),
    signature: z.string(), easUid: z.string(), onChainTxHash: z.string(), isOnChain: z.boolean(), explorerUrl: z.string(), createdAt: z.string(),
  })
  .openapi("RatingOnChain");
export const RatingMission = z
  .object({ id: z.string(), rater: PartyFull, ratee: PartyFull, score: z.number(), comment: z.string(), easUid: z.string(), isOnChain: z.boolean(), createdAt: z.string() })
  .openapi("RatingMissionItem");
const Avg = z.object({ average: z.number(), count: z.number() });
export const RatingStats = z
  .object({
    userId: z.string(), averageScore: z.number(), totalRatings: z.number(),
    ratingDistribution: z.object({ "5": z.number(), "4": z.number(), "3": z.number(), "2": z.number(), "1": z.number() }),
    asPerformer: Avg, asPoster: Avg,
  })
  .openapi("RatingStats");
export const RatingVerify = z
  .object({
    id: z.string(), easUid: z.string(), isOnChain: z.boolean(), verified: z.boolean(),
    attestation: z.object({ schemaId: z.string(), recipient: z.string(), attester: z.string(), time: z.number(), revocable: z.boolean() }),
    explorerUrl: z.string(),
  })
  .openapi("RatingVerification");
export const XpSummary = z
  .object({
    userId: z.string(), totalXP: z.number(), level: z.number(), levelTitle: z.string(), xpToNextLevel: z.number(), progress: z.number(),
    builderScore: z.number(), builderLevel: z.string(), xpMultiplier: z.number(),
  })
  .openapi("XpSummary");
export const XpMe = XpSummary.extend({
  evmAddress: z.string(), hasBuilderScore: z.boolean(), builderScoreRefreshedAt: z.string().nullable(),
}).openapi("XpMe");
export const BuilderRefresh = z
  .object({ provider: z.string().nullable(), builderScore: z.number().nullable(), transactionHash: z.string().nullable(), refreshedAt: z.string(), cached: z.boolean() })
  .openapi("BuilderScoreRefresh");
export const LedgerEntry = z
  .object({ id: z.string(), xpDelta: z.number(), source: z.string(), missionId: z.string().nullable(), reason: z.string(), balanceAfter: z.number(), createdAt: z.string() })
  .openapi("XpLedgerEntry");
export const LeaderboardEntry = z
  .object({ user: PartyFull, xp: z.number(), rank: z.number(), builderScore: z.number() })
  .openapi("LeaderboardEntry");
export const Nft = z
  .object({
    id: z.string(), tokenId: z.string(), contractAddress: z.string(), type: z.string(), name: z.string(), description: z.string(), image: z.string(),
    isSoulbound: z.boolean(),
    attributes: z.object({ achievementId: z.string(), missionId: z.string().nullable(), completedAt: z.string().nullable() }),
    mintedAt: z.string(),
  })
  .openapi("Nft");
export const AchievementDefinition = z
  .object({ id: z.string(), name: z.string(), description: z.string(), image: z.string(), requirements: z.string(), xpReward: z.number() })
  .openapi("AchievementDefinition");
