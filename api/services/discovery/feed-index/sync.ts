// The feed index of one API copy: the read model's open missions in memory (store.ts), ranked by
// relevance (rank.ts) and mapped (nearest.ts) per request. Why in memory: a reader's score of a mission
// mixes the mission's static part with three reader-dependent terms (distance, xp match, category
// preference) and the guild boost, so no SQL index orders missions for a reader; at 1M missions the SQL
// plans either scored every open mission (5-7 s) or, pruned by a bound, still thousands per page and
// tens of thousands for page 50 (docs/decisions.md "Feed index in memory").
//
// Consistency: the index holds the read model as of a cursor on its change sequence (handed out in
// commit order under the read model's write lock). Every ranking first reads the changes after the
// cursor (one indexed statement; nothing when idle), so a write whose response waited for its read-
// model row is in the next feed on every API copy (read-your-writes), and a rebuild's marker reloads
// the whole index. The first ranking loads it (a snapshot read in batches).
import type { FeedIndexChanges, FeedIndexRow, ShownRow } from "../../../repositories/discovery-feed-source.repository.ts";
import type { RankedRow } from "../../../repositories/discovery-feed.repository.ts";
import { near, type NearQuery } from "./nearest.ts";
import { rank, type FeedIndexQuery } from "./rank.ts";
import { FeedStore, type MapRow } from "./store.ts";

export interface FeedIndexSource {
  snapshot(onRows: (rows: FeedIndexRow[]) => void): Promise<bigint>;
  changesAfter(cursor: bigint): Promise<FeedIndexChanges>;
  rows(ids: string[]): Promise<ShownRow[]>;
  rowsAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; rows: ShownRow[] }>;
  guildNames(ids: string[]): Promise<Map<string, string>>;
  guildNamesAt(ids: string[], cursor: bigint): Promise<{ newer: boolean; names: Map<string, string> }>;
}

/**
 * The index of one API copy: loads on first use, follows the read model before every ranking.
 * `maxIdleMs`: a copy that has not synced for this long reloads (removals are kept for a day).
 */
export function createFeedIndex(source: FeedIndexSource, opts: { maxIdleMs?: number; block?: number } = {}) {
  const maxIdleMs = opts.maxIdleMs ?? 6 * 3600_000;
  let store: FeedStore | null = null;
  let cursor = 0n;
  let syncedAt = 0;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;

  async function load() {
    const fresh = new FeedStore({ block: opts.block });
    const at = await source.snapshot((rows) => { for (const r of rows) fresh.upsert(r); });
    fresh.compact();
    store = fresh;
    cursor = at;
  }

  async function catchUp() {
    if (!store || Date.now() - syncedAt > maxIdleMs) await load();
    for (;;) {
      const c = await source.changesAfter(cursor);
      if (c.reload) {
        await load();
        continue;
      }
      for (const ch of c.changes) {
        if ("upsert" in ch) store!.upsert(ch.upsert);
        else store!.remove(ch.removed);
      }
      cursor = c.cursor;
      if (!c.more) break;
    }
    store!.maybeCompact();
    syncedAt = Date.now();
  }

  /**
   * Resolves once a catch-up that STARTED after this call has finished: a change committed before the
   * call is in the index. Concurrent callers share one catch-up (and the one queued behind it).
   */
  function sync(): Promise<void> {
    if (!running) {
      running = catchUp().finally(() => { running = null; });
      return running;
    }
    if (!next) {
      next = running.catch(() => {}).then(() => {
        next = null;
        return sync();
      });
    }
    return next;
  }

  /**
   * `compute` over the index as of the read model now, with the rows of the ids it picked. Fast path
   * (one round trip): compute at the current cursor, then read the rows and whether anything changed
   * after that cursor in one statement; unchanged, the answer is the snapshot's. Otherwise (or on first
   * use, or after a long idle) catch up, compute again and read the rows. A change committed before the
   * call is after the cursor or applied, so read-your-writes holds either way.
   */
  async function current<T, R>(
    compute: (s: FeedStore) => T,
    read: { at: (r: T, cursor: bigint) => Promise<{ newer: boolean; got: R }>; now: (r: T) => Promise<R> },
  ): Promise<{ result: T; got: R }> {
    if (store && !running && Date.now() - syncedAt <= maxIdleMs) {
      const at = cursor;
      const result = compute(store);
      const { newer, got } = await read.at(result, at);
      if (!newer) {
        if (cursor === at) syncedAt = Date.now();
        return { result, got };
      }
    }
    await sync();
    const result = compute(store!);
    return { result, got: await read.now(result) };
  }
  /** current() with the rows of the ids a computation picked, read from the read model. */
  const withRows = <T>(compute: (s: FeedStore) => T, idsOf: (r: T) => string[]) =>
    current(compute, {
      at: async (r, at) => {
        const { newer, rows } = await source.rowsAt(idsOf(r), at);
        return { newer, got: rows };
      },
      now: (r) => source.rows(idsOf(r)),
    });

  return {
    sync,
    /** A ranked page (the index's state after a sync). */
    async rank(q: FeedIndexQuery): Promise<{ rows: (RankedRow & Pick<ShownRow, "guild_name" | "poster_id" | "poster_name">)[]; scored: number; visited: number }> {
      const { result: { rows, scored, visited }, got: shown } = await withRows((s) => rank(s, q), (r) => r.rows.map((x) => x.id));
      const byId = new Map(shown.map((r) => [r.id, r]));
      const out: (RankedRow & Pick<ShownRow, "guild_name" | "poster_id" | "poster_name">)[] = [];
      for (const r of rows) {
        const c = byId.get(r.id);
        if (c) out.push({ ...c, ...r });
      }
      return { rows: out, scored, visited };
    },
    /**
     * The map (FeedStore.near) as of a sync, with the rows of the nearest, nearest first, from the index
     * itself; the one round trip checks the cursor and reads the page's guild names.
     */
    async near(q: NearQuery): Promise<{ positions: { latitude: number; longitude: number; count: number }[]; nearest: (MapRow & { guild_name: string | null })[]; visited: number }> {
      const guildsOf = (rows: MapRow[]) => [...new Set(rows.flatMap((x) => (x.guild_uuid === null ? [] : [x.guild_uuid])))];
      const { result: r, got: names } = await current(
        (s) => {
          const found = near(s, q);
          return { ...found, rows: s.mapRowsAt(found.slots, found.nearest) };
        },
        {
          at: async (r, at) => {
            const { newer, names } = await source.guildNamesAt(guildsOf(r.rows), at);
            return { newer, got: names };
          },
          now: (r) => source.guildNames(guildsOf(r.rows)),
        },
      );
      // The rows are this request's own (mapRowsAt made them): named in place, not copied.
      const nearest = r.rows as (MapRow & { guild_name: string | null })[];
      for (const x of nearest) x.guild_name = x.guild_uuid === null ? null : (names.get(x.guild_uuid) ?? null);
      return { positions: r.positions, nearest, visited: r.visited };
    },
    /** Open missions held (diagnostics). */
    size: () => store?.count() ?? 0,
    /** Whether the index has loaded once (rankings no longer wait for a full load). */
    loaded: () => store !== null,
    /** Whether the index holds this open mission (as of its last sync). */
    has: (id: string) => store?.has(id) ?? false,
  };
}
export type FeedIndex = ReturnType<typeof createFeedIndex>;
