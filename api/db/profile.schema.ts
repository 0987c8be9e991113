// Tables of the profile area (users' rating texts, achievement mints, builder-score refreshes). The SQL is hand-written in migrations/0003_profile.sql; keep both in step.
import { index, integer, primaryKey, text, timestamp, unique, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { api } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The off-chain half of a rating: the comment (only its hash is on-chain) and the attestation receipt. */
export const ratings = api.table(
  "ratings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    missionId: text("mission_id").notNull(),
    missionOnChainId: text("mission_on_chain_id").notNull(),
    rater: text("rater").notNull(),
    ratee: text("ratee").notNull(),
    score: integer("score").notNull(),
    comment: text("comment").notNull(),
    commentHash: text("comment_hash").notNull(),
    signature: text("signature"),
    easUid: text("eas_uid"),
    txHash: text("tx_hash"),
    /** pending (claimed, attestation in flight) | onchain */
    status: text("status").notNull().default("pending"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    unique("ratings_mission_rater_unique").on(t.missionOnChainId, t.rater),
    uniqueIndex("ratings_eas_uid_idx").on(t.easUid),
    index("ratings_ratee_idx").on(t.ratee),
  ],
);

export const achievementMints = api.table(
  "achievement_mints",
  {
    account: text("account").notNull(),
    achievementId: integer("achievement_id").notNull(),
    /** Journal id (decimal) of the entry that earned it. */
    cause: text("cause").notNull(),
    missionOnChainId: text("mission_on_chain_id").notNull(),
    /** sending | minted | already_minted */
    status: text("status").notNull(),
    txHash: text("tx_hash"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "achievement_mints_pk", columns: [t.account, t.achievementId] })],
);

export const builderScoreRefreshes = api.table("builder_score_refreshes", {
  address: text("address").primaryKey(),
  score: integer("score"),
  txHash: text("tx_hash"),
  refreshedAt: ts("refreshed_at").notNull().defaultNow(),
});
