// Tables of the discovery area. SQL in migrations/0002_discovery.sql (hand-written); the
// search vector and lat/lng index on api.mission_details are added there too.
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, check, customType, doublePrecision, index, integer, numeric, primaryKey, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { MissionState } from "../../domain/states.ts";
import { missionStateCheck } from "./checks.ts";
import { api, users } from "./schema.ts";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Engagement signals for the feed's category preference: kind "view" (mission, dwell) or "search" (query). */
export const discoveryEvents = api.table(
  "discovery_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    missionId: text("mission_id"),
    category: text("category"),
    query: text("query"),
    dwellMs: integer("dwell_ms").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("discovery_events_user_idx").on(t.userId, t.createdAt)],
);

/** Presence checks (POST /missions/:id/verify-presence); purged after 30 days. */
export const locationHistory = api.table(
  "location_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    missionId: text("mission_id").notNull(),
    latitude: doublePrecision("latitude").notNull(),
    longitude: doublePrecision("longitude").notNull(),
    accuracy: doublePrecision("accuracy").notNull(),
    distance: doublePrecision("distance").notNull(),
    verified: boolean("verified").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("location_history_created_idx").on(t.createdAt), index("location_history_user_idx").on(t.userId, t.createdAt)],
);

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
const cube = customType<{ data: string }>({ dataType: () => "cube" });

/**
 * The discovery read model: one row per mission, what the map, the feed and search read (SQL,
 * functions and partial indexes in migrations/0013_discovery_read_model.sql; maintained by
 * api/repositories/discovery-read-model.repository.ts).
 */
export const discoveryMissions = api.table(
  "discovery_missions",
  {
    id: text("id").primaryKey(),
    onChainId: numeric("on_chain_id", { precision: 78, scale: 0 }).notNull(),
    poster: text("poster").notNull(),
    performer: text("performer"),
    /** One of MISSION_STATES (CHECK generated from the list, api/db/checks.ts). */
    state: text("state").$type<MissionState>().notNull(),
    guildUuid: text("guild_uuid"),
    reward: numeric("reward", { precision: 78, scale: 0 }).notNull(),
    expiresAt: bigint("expires_at", { mode: "bigint" }).notNull(),
    createdAt: bigint("created_at", { mode: "bigint" }).notNull(),
    detailsHash: text("details_hash").notNull(),
    detailsCreatedAt: ts("details_created_at"),
    title: text("title"),
    description: text("description"),
    category: text("category"),
    latitude: doublePrecision("latitude"),
    longitude: doublePrecision("longitude"),
    ratingSum: integer("rating_sum").notNull().default(0),
    ratingCount: integer("rating_count").notNull().default(0),
    minGuildXp: integer("min_guild_xp"),
    minReputation: integer("min_reputation"),
    premium: boolean("premium").notNull().default(false),
    /** The chain row's last update (its block): money moving without a state change is news too. */
    chainUpdatedBlock: bigint("chain_updated_block", { mode: "bigint" }),
    searchVector: tsvector("search_vector"),
    categoryLc: text("category_lc").generatedAlwaysAs(sql`lower("category")`),
    geo: cube("geo").generatedAlwaysAs(sql`"api"."geo_ecef"("latitude", "longitude")`),
    pubLatitude: doublePrecision("pub_latitude").generatedAlwaysAs(sql`"api"."cell6_center"("latitude", 90)`),
    pubLongitude: doublePrecision("pub_longitude").generatedAlwaysAs(sql`"api"."cell6_center"("longitude", 180)`),
    pubGeo: cube("pub_geo").generatedAlwaysAs(sql`"api"."geo_ecef"("api"."cell6_center"("latitude", 90), "api"."cell6_center"("longitude", 180))`),
    changeSeq: bigint("change_seq", { mode: "bigint" }).notNull().default(sql`nextval('"api"."discovery_change_seq"')`),
  },
  (t) => [
    index("discovery_missions_poster_idx").on(t.poster),
    index("discovery_missions_change_seq_idx").on(t.changeSeq),
    check("discovery_missions_state_check", missionStateCheck(t.state.name)),
  ],
);

/**
 * The search side of the read model: per mission with a text vector, only what /feed/search filters
 * and orders its matches by (migrations/0021_discovery_search.sql, kept by statement triggers on
 * discovery_missions). A common term matches a quarter of the missions and ranks every match, so the
 * heap pages a match costs decide its time: these rows are a third as wide as the read model's.
 */
export const discoverySearch = api.table("discovery_search", {
  id: text("id").primaryKey(),
  detailsCreatedAt: ts("details_created_at"),
  state: text("state").$type<MissionState>().notNull(),
  categoryLc: text("category_lc"),
  guildUuid: text("guild_uuid"),
  detailsHash: text("details_hash").notNull(),
  searchVector: tsvector("search_vector").notNull(),
}, (t) => [check("discovery_search_state_check", missionStateCheck(t.state.name))]);

/**
 * The search side's postings: one row per (mission, lexeme) of discovery_search, with that lexeme's
 * ts_rank in the mission's vector (the rank a one-word query gives it) and the order's next key
 * (migrations/0023_discovery_search_terms.sql, kept by statement triggers on discovery_search). A
 * one-word search reads its best rows and its exact count from this index alone (index-only scans)
 * instead of one heap page per match: 10,054 matches at 1M missions cost ~1.3 ms instead of ~15 ms.
 * `details_created_at` is never NULL here: a NULL of discovery_search is stored as +infinity (it sorts
 * first in DESC order, as NULL does), so a row's key is exact and a trigger deletes it by its key.
 */
export const discoverySearchTerms = api.table(
  "discovery_search_terms",
  {
    lexeme: text("lexeme").notNull(),
    rank: real("rank").notNull(),
    detailsCreatedAt: ts("details_created_at").notNull(),
    id: uuid("id").notNull(),
  },
  (t) => [index("discovery_search_terms_key_idx").on(t.lexeme, t.rank.desc(), t.detailsCreatedAt.desc(), t.id)],
);

/** The read model's change feed for real time (migrations/0014_discovery_changes.sql; written by a trigger). */
export const discoveryChanges = api.table(
  "discovery_changes",
  {
    seq: bigserial("seq", { mode: "bigint" }).primaryKey(),
    missionId: text("mission_id").notNull(),
    kind: text("kind").notNull(),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [index("discovery_changes_at_idx").on(t.at)],
);

/**
 * Missions that left the read model (a mission the indexer no longer holds), and the rebuild's marker
 * (mission_id NULL: reload everything), numbered from the read model's change sequence
 * (migrations/0020_discovery_removed.sql): with `change_seq`, what an in-memory copy of the read model
 * (the feed index, api/services/discovery/feed-index/) needs to follow it exactly.
 */
export const discoveryRemoved = api.table(
  "discovery_removed",
  {
    seq: bigint("seq", { mode: "bigint" }).primaryKey().default(sql`nextval('"api"."discovery_change_seq"')`),
    missionId: text("mission_id"),
    at: ts("at").notNull().defaultNow(),
  },
  (t) => [index("discovery_removed_at_idx").on(t.at)],
);

/**
 * Open missions per neighbourhood cell (the geohash-6 cell centre a non-party is shown), kept by
 * statement triggers on the read model (migrations/0018_discovery_cells.sql): the map's exact totals
 * and clusters read the cells inside a radius instead of every mission (expiry and the viewer's own
 * missions are corrected at read time, api/repositories/discovery.repository.ts).
 */
export const discoveryCells = api.table("discovery_cells", {
  pubLatitude: doublePrecision("pub_latitude").notNull(),
  pubLongitude: doublePrecision("pub_longitude").notNull(),
  openCount: integer("open_count").notNull(),
  geo: cube("geo").generatedAlwaysAs(sql`"api"."geo_ecef"("pub_latitude", "pub_longitude")`),
  reach: doublePrecision("reach").generatedAlwaysAs(sql`"api"."cell6_reach"("pub_latitude", "pub_longitude")`),
}, (t) => [primaryKey({ columns: [t.pubLatitude, t.pubLongitude] })]);

/**
 * Open missions per (category, guild), expired or not, kept by statement triggers on the read model
 * (migrations/0019_discovery_feed.sql): the feed's exact `total` is a sum over these few rows, less the
 * expired-but-still-Open missions (read from the expiry index), instead of a count over every open
 * mission. Keys are '' where the mission has no category (lowercased) or no guild.
 */
export const discoveryTotals = api.table("discovery_totals", {
  categoryKey: text("category_key").notNull(),
  guildKey: text("guild_key").notNull(),
  openCount: integer("open_count").notNull(),
}, (t) => [primaryKey({ columns: [t.categoryKey, t.guildKey] })]);
