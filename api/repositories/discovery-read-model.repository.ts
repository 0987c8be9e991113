// The discovery read model (api.discovery_missions): one row per mission with what the map, the feed
// and search read. One SQL projection from the chain's views + the current details builds a row; the
// incremental path (journal reactor, the relayer's read-your-writes hook, the details write) and the
// rebuild run that same projection, so they cannot drift apart.
import type pg from "pg";
import { missionStateSql } from "../db/checks.ts";
import { listen, type Listening } from "../db/listen.ts";
import { chainRead } from "./chain-query.ts";
import { checkpointSql } from "./indexer-checkpoint.repository.ts";

/** Ponder's checkpoint rows as the catch-up read them (indexer-checkpoint.repository.ts `checkpointBlockOf`). */
export type CheckpointRows = { latest_checkpoint: string }[];

/** Columns the projection writes (everything but the generated ones and change_seq). */
const COLUMNS = [
  "id", "on_chain_id", "poster", "performer", "state", "guild_uuid", "reward", "expires_at", "created_at",
  "details_hash", "details_created_at", "title", "description", "category", "latitude", "longitude",
  "rating_sum", "rating_count", "min_guild_xp", "search_vector", "min_reputation", "premium", "chain_updated_block",
] as const;

/** Journal types after which a poster's reputation (user_stats) may have changed. */
const REPUTATION_TYPES = new Set(["RATING_ATTESTED"]);
const BLOCK_FACTOR = 1_000_000_000n;
const WRITE_LOCK = 7_301_013;

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;
export type DetailsBinding = { escrowAddress: string; onChainId: string };

export function discoveryReadModelRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema.replace(/"/g, '""')}"`;

  /**
   * The projection of the missions matching `where` (SQL over m = chain mission). The details are
   * attached only while the chain holds their hash AND they were registered for this mission (their
   * escrow and on_chain_id): another mission committing a copied hash does not inherit its text and location.
   */
  const projection = (where: string) => `
    SELECT m.id, m.on_chain_id, lower(m.poster), lower(m.performer), m.state, m.guild_uuid, m.reward,
           m.expires_at, m.created_at, lower(m.details_hash), d.created_at, d.title, d.description, d.category,
           d.latitude, d.longitude, coalesce(us.rating_sum, 0), coalesce(us.rating_count, 0),
           CASE WHEN m.guild_uuid IS NOT NULL THEN
             (SELECT max(be.min_guild_xp) FROM ${s}.board_entries be WHERE be.mission_id = m.id AND be.active) END,
           d.search_vector, d.min_reputation, coalesce(d.premium, false), m.updated_block
      FROM ${s}.missions m
      LEFT JOIN api.mission_details d ON d.details_hash = lower(m.details_hash) AND d.on_chain_id = m.on_chain_id::text AND d.escrow_address = m.escrow_address
      LEFT JOIN ${s}.user_stats us ON us.address = lower(m.poster)
     WHERE ${where}`;

  const cols = COLUMNS.map((c) => `"${c}"`).join(", ");
  // A row whose projection did not change keeps its change_seq: the change feed sends real changes only.
  const upsert = (where: string) => `
    INSERT INTO api.discovery_missions AS t (${cols}) ${projection(where)}
    ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((c) => c !== "id").map((c) => `"${c}" = EXCLUDED."${c}"`).join(", ")},
      change_seq = nextval('api.discovery_change_seq')
    WHERE (${COLUMNS.map((c) => `t."${c}"`).join(", ")}) IS DISTINCT FROM (${COLUMNS.map((c) => `EXCLUDED."${c}"`).join(", ")})`;

  async function refreshOn(db: Queryable, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await db.query(upsert(`m.id = ANY($1::text[])`), [ids]);
    // A mission the indexer no longer holds (rewound after a restart) leaves the read model too.
    await db.query(
      `DELETE FROM api.discovery_missions dm WHERE dm.id = ANY($1::text[])
          AND NOT EXISTS (SELECT 1 FROM ${s}.missions m WHERE m.id = dm.id)`,
      [ids],
    );
  }

  /** Re-reads the reputation of the posters `source` (SQL: one `address` column) into all their rows. */
  const postersUpdate = (source: string) => `
    UPDATE api.discovery_missions t SET rating_sum = x.rs, rating_count = x.rc, change_seq = nextval('api.discovery_change_seq')
      FROM (SELECT p.address, coalesce(us.rating_sum, 0) AS rs, coalesce(us.rating_count, 0) AS rc
              FROM (${source}) AS p LEFT JOIN ${s}.user_stats us ON us.address = p.address) x
     WHERE t.poster = x.address AND (t.rating_sum, t.rating_count) IS DISTINCT FROM (x.rs, x.rc)`;
  async function refreshPosters(db: Queryable, posters: string[]): Promise<void> {
    if (posters.length === 0) return;
    await db.query(postersUpdate("SELECT unnest($1::text[]) AS address"), [posters.map((p) => p.toLowerCase())]);
  }

  /**
   * A write transaction. Writers serialise on WRITE_LOCK so the change feed's sequence numbers
   * (api.discovery_changes, filled by a trigger) commit in order: a reader's `seq > cursor` never
   * skips a change that was numbered earlier but committed later. Writes are one per relayed write
   * or journal entry, a few milliseconds each.
   */
  async function inTransaction<T>(fn: (c: pg.PoolClient) => Promise<T>, opts: { rebuild?: boolean } = {}): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
      if (opts.rebuild) await client.query(`SET LOCAL discovery.rebuild = 'on'`);
      const out = await fn(client);
      await client.query("COMMIT");
      return out;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      // The chain views are missing until the indexer has started once: 503 INDEXER_UNAVAILABLE, not 500.
      return chainRead(Promise.reject(err));
    } finally {
      client.release();
    }
  }

  /**
   * The relayer's read-your-writes writes, any number in ONE transaction sent as ONE round trip
   * (discovery-write-queue.ts gathers them): everything the journal entries of `blocks` touched (the
   * relayer calls this once the indexer has reached its receipt's block, before the write's response),
   * and details rows bound to their missions (the create path, once the chain has the on-chain id;
   * once bound, a details row never moves to another mission), then one projection of every mission
   * concerned. Literals, not parameters (a multi-statement query takes none): each is checked first.
   */
  async function applyWrites(blocks: bigint[], attach: (DetailsBinding & { hash: string })[], opts: { checkpoint?: boolean } = {}): Promise<CheckpointRows | undefined> {
    if (!blocks.length && !attach.length && !opts.checkpoint) return undefined;
    const bad = attach.find((a) => !/^0x[0-9a-fA-F]{64}$/.test(a.hash) || !/^\d{1,78}$/.test(a.onChainId) || !/^0x[0-9a-fA-F]{40}$/.test(a.escrowAddress));
    if (bad) throw new Error(`malformed details binding ${JSON.stringify(bad)}`);
    const ranges = [...new Set(blocks)].map((b) => `(j.id >= ${b * BLOCK_FACTOR} AND j.id < ${(b + 1n) * BLOCK_FACTOR})`).join(" OR ") || "false";
    const touched = `SELECT j.mission_id FROM ${s}.journal j WHERE ${ranges}`;
    // The distinct hashes in one statement; a hash bound twice in one batch (a copied hash) after,
    // alone: the first binding wins, as when each ran in its own transaction.
    const first = new Map<string, DetailsBinding>();
    const again = attach.filter((a) => first.has(a.hash.toLowerCase()) || !first.set(a.hash.toLowerCase(), a));
    const binds = [[...first], ...again.map((a) => [[a.hash.toLowerCase(), a] as const])].filter((g) => g.length).map((g) =>
      `UPDATE api.mission_details d SET on_chain_id = x.id, escrow_address = x.escrow
         FROM (VALUES ${g.map(([h, a]) => `('${h}', '${a.onChainId}', '${a.escrowAddress.toLowerCase()}')`).join(", ")}) AS x(hash, id, escrow)
        WHERE d.details_hash = x.hash AND (d.on_chain_id IS NULL OR (d.on_chain_id = x.id AND d.escrow_address = x.escrow))`);
    const bound = attach.length ? ` OR m.on_chain_id IN (${attach.map((a) => a.onChainId).join(", ")})` : "";
    const rated = `SELECT DISTINCT lower(j.account) AS address FROM ${s}.journal j
      WHERE (${ranges}) AND j.account IS NOT NULL AND j.type IN (${[...REPUTATION_TYPES].map((t) => `'${t}'`).join(", ")})`;
    // `checkpoint`: Ponder's checkpoint read first; each later statement's snapshot has every block it names.
    const sql = [
      "BEGIN", ...(opts.checkpoint ? [checkpointSql(chainSchema)] : []), `SELECT pg_advisory_xact_lock(${WRITE_LOCK})`, ...binds,
      upsert(`m.id IN (${touched})${bound}`),
      // A mission the indexer no longer holds (rewound after a restart) leaves the read model too.
      `DELETE FROM api.discovery_missions dm WHERE dm.id IN (${touched}) AND NOT EXISTS (SELECT 1 FROM ${s}.missions m WHERE m.id = dm.id)`,
      ...(blocks.length ? [postersUpdate(rated)] : []),
      "COMMIT",
    ].join(";\n");
    const client = await pool.connect();
    let broken = false;
    try {
      const results = (await client.query(sql)) as unknown as { rows: unknown[] }[];
      return opts.checkpoint ? (results[1]!.rows as CheckpointRows) : undefined;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => (broken = true));
      // The chain views are missing until the indexer has started once: 503 INDEXER_UNAVAILABLE, not 500.
      return chainRead(Promise.reject(err));
    } finally {
      client.release(broken);
    }
  }

  return {
    /** Re-projects these missions (chain facts + current details); deletes those the chain no longer has. */
    refresh: (ids: string[]) => inTransaction((c) => refreshOn(c, [...new Set(ids)])),

    /** Re-reads the reputation of these posters into all their rows. */
    refreshPosters: (posters: string[]) => inTransaction((c) => refreshPosters(c, [...new Set(posters)])),

    /** Everything the journal entries of one block touched (one block's `applyWrites`). */
    syncBlock: (block: bigint) => applyWrites([block], []).then(() => {}),

    /** One journal entry (the reactor): its mission, and its account's reputation after a rating. */
    async applyEntry(e: { type: string; missionId: string | null; account: string | null }): Promise<void> {
      await inTransaction(async (c) => {
        if (e.missionId) await refreshOn(c, [e.missionId]);
        if (e.account && REPUTATION_TYPES.has(e.type)) await refreshPosters(c, [e.account]);
      });
    },

    /** The create path's details write once the chain has the mission (one item's `applyWrites`). */
    attachDetails: (hash: string, mission: DetailsBinding) => applyWrites([], [{ hash, ...mission }]).then(() => {}),

    applyWrites,

    /**
     * Rebuilds the whole table from the chain views and the details, in one transaction (readers see
     * the old rows until it commits; the change feed stays silent: nothing changed for subscribers).
     * Returns the number of rows.
     */
    async rebuild(): Promise<number> {
      return inTransaction(async (c) => {
        await c.query(`LOCK TABLE api.discovery_missions IN EXCLUSIVE MODE`);
        // The search postings first (no trigger reads them then: the cascade below finds them empty).
        await c.query(`DELETE FROM api.discovery_search_terms`);
        await c.query(`DELETE FROM api.discovery_missions`);
        await c.query(`DELETE FROM api.discovery_cells`); // all zero now; the insert's trigger counts afresh
        await c.query(`DELETE FROM api.discovery_totals`); // likewise
        await c.query(`INSERT INTO api.discovery_removed (mission_id) VALUES (NULL)`); // copies of the read model reload
        const res = await c.query(`INSERT INTO api.discovery_missions (${cols}) ${projection("true")}`);
        return res.rowCount ?? 0;
      }, { rebuild: true });
    },

    /**
     * Cells whose kept count differs from a fresh count of the read model (the triggers' check):
     * empty when the incremental cell counts are exact.
     */
    async cellDrift(): Promise<{ latitude: number; longitude: number; kept: number; actual: number }[]> {
      const { rows } = await pool.query(
        `SELECT coalesce(c.pub_latitude, a.pub_latitude) AS latitude, coalesce(c.pub_longitude, a.pub_longitude) AS longitude,
                coalesce(c.open_count, 0) AS kept, coalesce(a.n, 0) AS actual
           FROM api.discovery_cells c
           FULL JOIN (SELECT pub_latitude, pub_longitude, count(*)::int AS n FROM api.discovery_missions
                       WHERE state = ${missionStateSql("Open")} AND geo IS NOT NULL GROUP BY 1, 2) a
             ON a.pub_latitude = c.pub_latitude AND a.pub_longitude = c.pub_longitude
          WHERE coalesce(c.open_count, 0) <> coalesce(a.n, 0)`,
      );
      return rows;
    },

    /** (category, guild) totals whose kept count differs from a fresh count: empty when the feed's totals are exact. */
    async totalsDrift(): Promise<{ category: string; guild: string; kept: number; actual: number }[]> {
      const { rows } = await pool.query(
        `SELECT coalesce(t.category_key, a.c) AS category, coalesce(t.guild_key, a.g) AS guild,
                coalesce(t.open_count, 0) AS kept, coalesce(a.n, 0) AS actual
           FROM api.discovery_totals t
           FULL JOIN (SELECT coalesce(category_lc, '') AS c, coalesce(guild_uuid, '') AS g, count(*)::int AS n
                        FROM api.discovery_missions WHERE state = ${missionStateSql("Open")} GROUP BY 1, 2) a
             ON a.c = t.category_key AND a.g = t.guild_key
          WHERE coalesce(t.open_count, 0) <> coalesce(a.n, 0)`,
      );
      return rows;
    },

    /** Missions whose search row (api.discovery_search) differs from the read model's: empty when the triggers kept it exact. */
    async searchDrift(): Promise<{ id: string; kept: boolean; expected: boolean }[]> {
      const { rows } = await pool.query(
        `WITH expected AS (SELECT id, details_created_at, state, category_lc, guild_uuid, details_hash, search_vector
                             FROM api.discovery_missions WHERE search_vector IS NOT NULL)
         SELECT coalesce(s.id, e.id) AS id, s.id IS NOT NULL AS kept, e.id IS NOT NULL AS expected
           FROM api.discovery_search s FULL JOIN expected e ON e.id = s.id
          WHERE s.id IS NULL OR e.id IS NULL
             OR (s.details_created_at, s.state, s.category_lc, s.guild_uuid, s.details_hash, s.search_vector)
                IS DISTINCT FROM (e.details_created_at, e.state, e.category_lc, e.guild_uuid, e.details_hash, e.search_vector)`,
      );
      return rows;
    },

    /**
     * Postings (api.discovery_search_terms) that differ from the search rows' vectors: kept without an
     * expected one, or expected and missing, with the rank and key a fresh computation gives. Empty
     * when the triggers kept them exact.
     */
    async termsDrift(): Promise<{ id: string; lexeme: string; kept: boolean; expected: boolean }[]> {
      const { rows } = await pool.query(
        `WITH expected AS (SELECT u.lexeme, ts_rank(s.search_vector, api.search_term_query(u.lexeme)) AS rank,
                                  coalesce(s.details_created_at, 'infinity') AS details_created_at, s.id::uuid AS id
                             FROM api.discovery_search s CROSS JOIN LATERAL unnest(s.search_vector) u)
         SELECT coalesce(t.id, e.id)::text AS id, coalesce(t.lexeme, e.lexeme) AS lexeme, t.id IS NOT NULL AS kept, e.id IS NOT NULL AS expected
           FROM api.discovery_search_terms t
           FULL JOIN expected e ON e.id = t.id AND e.lexeme = t.lexeme AND e.rank = t.rank AND e.details_created_at = t.details_created_at
          WHERE t.id IS NULL OR e.id IS NULL`,
      );
      return rows;
    },

    /** The projected columns of every row, ordered by id (the rebuild-equals-incremental check). */
    async snapshot(): Promise<Record<string, unknown>[]> {
      const { rows } = await pool.query(
        `SELECT ${cols}, category_lc, geo::text AS geo, pub_latitude, pub_longitude FROM api.discovery_missions ORDER BY id`,
      );
      return rows;
    },
  };
}
export type DiscoveryReadModelRepository = ReturnType<typeof discoveryReadModelRepository>;

/**
 * The change feed's reads (real time): changes after a cursor in commit order, the current head, the
 * purge of old entries, and the wake-up on every commit (the trigger NOTIFYs discovery_changes).
 */
export function discoveryChangesRepository(pool: pg.Pool) {
  return {
    async head(): Promise<bigint> {
      const { rows } = await pool.query<{ seq: string | null }>(`SELECT max(seq)::text AS seq FROM api.discovery_changes`);
      return BigInt(rows[0]?.seq ?? 0);
    },
    async after(cursor: bigint, limit: number): Promise<{ seq: bigint; missionId: string; kind: "created" | "updated" }[]> {
      const { rows } = await pool.query<{ seq: string; mission_id: string; kind: "created" | "updated" }>(
        `SELECT seq::text, mission_id, kind FROM api.discovery_changes WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [cursor.toString(), limit],
      );
      return rows.map((r) => ({ seq: BigInt(r.seq), missionId: r.mission_id, kind: r.kind }));
    },
    /** Entries older than `hours` (a reconnecting copy catches up over far less). */
    async purge(hours: number): Promise<number> {
      const res = await pool.query(`DELETE FROM api.discovery_changes WHERE at < now() - make_interval(hours => $1)`, [hours]);
      return res.rowCount ?? 0;
    },
    /** Removals (and rebuild markers) older than `hours`: the feed index reloads after a longer silence. */
    async purgeRemoved(hours: number): Promise<number> {
      const res = await pool.query(`DELETE FROM api.discovery_removed WHERE at < now() - make_interval(hours => $1)`, [hours]);
      return res.rowCount ?? 0;
    },
    /** Wakes `onNotify` on every committed change; `onLost` once if the connection goes (re-listen, then catch up). */
    listen(onNotify: () => void, onLost: (err?: unknown) => void): Promise<Listening> {
      return listen(pool, "discovery_changes", () => onNotify(), onLost);
    },
  };
}
export type DiscoveryChangesRepository = ReturnType<typeof discoveryChangesRepository>;
