// The rows the discovery repositories share: a mission of the read model as the feed and the map read
// it (one column list for every statement that returns it), what a response shows besides, and the
// chain tables' rows as raw SQL returns them, typed from the Ponder schema.
import type { ChainTables } from "../db/chain.ts";

type Raw<V> = V extends bigint ? string : V;
/**
 * A chain table's row (indexer/ponder.schema.ts, drizzle's $inferSelect) as raw SQL returns it: pg gives
 * Ponder's bigint columns (numeric) as text. Statements select the columns under the schema's names
 * (`total_xp AS "totalXP"`) and type their rows with a Pick of this.
 */
export type ChainRow<T extends keyof ChainTables> = ChainTables[T] extends { $inferSelect: infer R }
  ? { [K in keyof R]: Raw<R[K]> }
  : never;

/** A candidate of the feed / the map: what scoring, privacy and clustering need. */
export interface CandidateRow {
  id: string;
  poster: string;
  performer: string | null;
  guild_uuid: string | null;
  reward: string;
  expires_at: string;
  details_hash: string | null;
  title: string | null;
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  rating_sum: number;
  rating_count: number;
  min_guild_xp: number | null;
  min_reputation: number | null;
  premium: boolean;
}

/** The columns of CandidateRow over the read model named dm. */
export const CANDIDATE_COLUMNS = `dm.id, dm.poster, dm.performer, dm.guild_uuid, dm.reward::text AS reward, dm.expires_at::text AS expires_at,
  dm.details_hash, dm.title, dm.category, dm.latitude, dm.longitude, dm.rating_sum, dm.rating_count, dm.min_guild_xp,
  dm.min_reputation, dm.premium`;

/** What a response shows about a candidate besides its read-model row (only for the page). */
export interface DisplayRow {
  id: string;
  guild_name: ChainRow<"guilds">["name"] | null;
  poster_id: string | null;
  poster_name: string | null;
}
