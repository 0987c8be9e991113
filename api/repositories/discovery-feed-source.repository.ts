// What the in-memory feed index (api/services/discovery/feed-index/) reads from the discovery read
// model: a consistent snapshot of the open missions with the change cursor it is valid at, the changes
// after a cursor (rows whose change_seq moved, rows deleted, and the rebuild's reload marker; all
// numbered by api.discovery_change_seq, handed out in commit order under the read model's write lock,
// migrations 0013 and 0020), and the display columns of one page.
import type pg from "pg";
import { missionStateSql } from "../db/checks.ts";
import { CANDIDATE_COLUMNS, type CandidateRow, type ChainRow, type DisplayRow } from "./discovery-rows.ts";

/** One open mission as the index keeps it (the factors' inputs only). */
export interface FeedIndexRow {
  id: string;
  state: string;
  poster: string;
  performer: string | null;
  guildId: string | null;
  reward: string;
  expiresAt: number;
  /** Lowercased category, null without one. */
  category: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The neighbourhood cell's centre a non-party is shown (generated columns). */
  pubLatitude: number | null;
  pubLongitude: number | null;
  ratingSum: number;
  ratingCount: number;
  minGuildXp: number | null;
  minReputation: number | null;
  premium: boolean;
  /** What the map shows besides (the details' title and category as written; null without details). */
  title: string | null;
  categoryText: string | null;
}

export interface FeedIndexChanges {
  /** A rebuild happened after the cursor: read a new snapshot. */
  reload: boolean;
  /** Rows whose projection changed (any state: the index drops those no longer Open), and missions
   * that left the read model, in sequence order. */
  changes: ({ upsert: FeedIndexRow } | { removed: string })[];
  /** The cursor after these changes. */
  cursor: bigint;
  /** True when `limit` cut the batch: ask again from `cursor`. */
  more: boolean;
}

const ROW = `dm.id, dm.state, dm.poster, dm.performer, dm.guild_uuid, dm.reward::text, dm.expires_at::text, dm.category_lc,
  dm.latitude, dm.longitude, dm.pub_latitude, dm.pub_longitude, dm.rating_sum, dm.rating_count, dm.min_guild_xp, dm.title, dm.category,
  dm.min_reputation, dm.premium, dm.change_seq::text`;
type RawRow = [string, string, string, string | null, string | null, string, string, string | null,
  number | null, number | null, number | null, number | null, number, number, number | null, string | null, string | null, number | null, boolean, string];

const toRow = (r: RawRow): FeedIndexRow => ({
  id: r[0], state: r[1], poster: r[2], performer: r[3], guildId: r[4], reward: r[5], expiresAt: Number(r[6]), category: r[7],
  latitude: r[8], longitude: r[9], pubLatitude: r[10], pubLongitude: r[11], ratingSum: r[12], ratingCount: r[13], minGuildXp: r[14],
  title: r[15], categoryText: r[16], minReputation: r[17], premium: r[18],
});

/**
 * Whether the read model changed after the cursor ($2). max() reads the last entry of each sequence
 * index whatever the plan (a prepared statement's generic plan would answer "EXISTS (... > $2)" with a
 * sequential scan).
 */
const NEWER = `coalesce((SELECT max(change_seq) FROM api.discovery_missions) > $2, false)
  OR coalesce((SELECT max(seq) FROM api.discovery_removed) > $2, false)`;

type Guild = ChainRow<"guilds">;

/** A candidate with what a response shows besides it (guild name, poster's user id and name). */
export type ShownRow = CandidateRow & Omit<DisplayRow, "id">;

export function discoveryFeedSourceRepository(pool: pg.Pool, chainSchema: string) {
  // Named (prepared once per connection): the per-request statements skip parsing and planning.
  const ROWS = `SELECT ${CANDIDATE_COLUMNS}, g.name AS guild_name, pu.id AS poster_id, pu.display_name AS poster_name
                  FROM api.discovery_missions dm
                  LEFT JOIN "${chainSchema}".guilds g ON g.id = dm.guild_uuid
                  LEFT JOIN api.users pu ON pu.evm_address = lower(dm.poster)
                 WHERE dm.id = ANY($1::text[])`;
  return {
    /**
     * Every open mission, in batches of `batch` (keyset on id), and the cursor the rows are valid at,
     * read in one REPEATABLE READ snapshot: a change committed after it has a higher sequence number.
     */
    async snapshot(onRows: (rows: FeedIndexRow[]) => void, batch = 50_000): Promise<bigint> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const head = await client.query<{ seq: string }>(
          `SELECT greatest((SELECT max(change_seq) FROM api.discovery_missions), (SELECT max(seq) FROM api.discovery_removed), 0)::text AS seq`,
        );
        let after = "";
        for (;;) {
          const { rows } = await client.query<RawRow>({
            text: `SELECT ${ROW} FROM api.discovery_missions dm WHERE dm.state = ${missionStateSql("Open")} AND dm.id > $1 ORDER BY dm.id LIMIT $2`,
            values: [after, batch],
            rowMode: "array",
          });
          if (rows.length === 0) break;
          onRows(rows.map(toRow));
          after = rows[rows.length - 1]![0];
          if (rows.length < batch) break;
        }
        await client.query("COMMIT");
        return BigInt(head.rows[0]!.seq);
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },

    /** The changes after `cursor`, at most `limit` rows (one statement: one snapshot). */
    async changesAfter(cursor: bigint, limit = 10_000): Promise<FeedIndexChanges> {
      const { rows } = await pool.query<[string, ...unknown[]]>({
        text: `
          (SELECT 'r' AS kind, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, max(seq)::text
             FROM api.discovery_removed WHERE seq > $1 AND mission_id IS NULL HAVING count(*) > 0)
          UNION ALL
          (SELECT 'u', ${ROW} FROM api.discovery_missions dm WHERE dm.change_seq > $1 ORDER BY dm.change_seq LIMIT $2)
          UNION ALL
          (SELECT 'd', mission_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, seq::text
             FROM api.discovery_removed WHERE seq > $1 AND mission_id IS NOT NULL ORDER BY seq LIMIT $2)`,
        values: [cursor.toString(), limit],
        rowMode: "array",
      });
      const out: FeedIndexChanges = { reload: false, changes: [], cursor, more: false };
      // Both lists are cut at `limit`: only changes up to the lower of their last sequence numbers are
      // complete; the rest is read again next time.
      let upTo: bigint | null = null;
      const ups = rows.filter((r) => r[0] === "u");
      const dels = rows.filter((r) => r[0] === "d");
      if (ups.length === limit) upTo = BigInt(ups[ups.length - 1]!.at(-1) as string);
      if (dels.length === limit) {
        const d = BigInt(dels[dels.length - 1]!.at(-1) as string);
        upTo = upTo === null || d < upTo ? d : upTo;
      }
      let max = cursor;
      // In sequence order: a mission deleted and projected again (a reorg) ends up present.
      const kept = rows.map((r) => ({ r, seq: BigInt(r.at(-1) as string) }))
        .filter((x) => upTo === null || x.seq <= upTo)
        .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
      for (const { r, seq } of kept) {
        if (seq > max) max = seq;
        if (r[0] === "r") out.reload = true;
        else if (r[0] === "u") out.changes.push({ upsert: toRow(r.slice(1) as RawRow) });
        else out.changes.push({ removed: r[1] as string });
      }
      out.cursor = max;
      out.more = upTo !== null;
      return out;
    },

    /** The page's rows with their display names (the joins of discovery.repository's display()): one round trip. */
    async rows(ids: string[]): Promise<ShownRow[]> {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<ShownRow>({ name: `feed-source-rows:${chainSchema}`, text: ROWS, values: [ids] });
      return rows;
    },

    /** Guild names by id (the map's markers; the index holds everything else they show). */
    async guildNames(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const { rows } = await pool.query<[Guild["id"], Guild["name"]]>({
        name: `feed-source-guild-names:${chainSchema}`,
        text: `SELECT g.id, g.name FROM "${chainSchema}".guilds g WHERE g.id = ANY($1::text[])`,
        values: [ids],
        rowMode: "array",
      });
      return new Map(rows);
    },

    /**
     * Whether the read model has changed after `cursor`, and guild names by id (as guildNames()), in one
     * statement: the map's one round trip when its markers come from an index at `cursor`.
     */
    async guildNamesAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; names: Map<string, string> }> {
      const { rows } = await pool.query<[boolean, Guild["id"] | null, Guild["name"] | null]>({
        name: `feed-source-guild-names-at:${chainSchema}`,
        text: `SELECT f.newer, g.id, g.name FROM (SELECT ${NEWER} AS newer) f
                 LEFT JOIN "${chainSchema}".guilds g ON g.id = ANY($1::text[])`,
        values: [ids, cursor.toString()],
        rowMode: "array",
      });
      return { newer: rows[0]?.[0] ?? true, names: new Map(rows.filter((r) => r[1] !== null).map((r) => [r[1]!, r[2]!])) };
    },

    /**
     * The page's rows (as rows()) and whether the read model has changed after `cursor`, in one
     * statement (one snapshot, one round trip): when it has not, a page computed from an index at
     * `cursor` is the page of this snapshot, and the rows go with it.
     */
    async rowsAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; rows: ShownRow[] }> {
      const { rows } = await pool.query<ShownRow & { newer: boolean }>({
        name: `feed-source-rows-at:${chainSchema}`,
        text: `SELECT f.newer, x.* FROM (SELECT ${NEWER} AS newer) f LEFT JOIN (${ROWS}) x ON true`,
        values: [ids, cursor.toString()],
      });
      return { newer: rows[0]?.newer ?? true, rows: rows.filter((r) => r.id !== null).map(({ newer: _, ...r }) => r) };
    },
  };
}
export type DiscoveryFeedSourceRepository = ReturnType<typeof discoveryFeedSourceRepository>;
