// Tables of the discovery area (issue 7). SQL in migrations/0002_discovery.sql (hand-written); the
// search vector and lat/lng index on api.mission_details are added there too.
import { bigserial, boolean, doublePrecision, index, integer, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
