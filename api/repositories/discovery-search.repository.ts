// Full-text search over every mission with details (the read model's search rows): the best `limit`
// by ts_rank with highlighted titles and the exact number of matches, in one statement.
import type pg from "pg";
import { namedQuery as q } from "./discovery-statement.ts";

/**
 * A query that PostgreSQL's parser makes one token: letters and digits only (searchOneTerm checks
 * that it became one plain lexeme, else the GIN path answers).
 */
const ONE_WORD = /^\s*[\p{L}\p{N}]+\s*$/u;

export function discoverySearchRepository(pool: pg.Pool) {
  type Hit = { id: string; title: string; description: string; category: string; rank: number; headline: string };
  // The best rows' display columns and highlighted titles (ts_headline over the title with STX/ETX
  // marks, escaped and turned into <em> by the service), in the order of `best`: `rows` names the
  // best rows as h and their read-model row as dm.
  const display = (rows: string) =>
    `SELECT h.id, dm.title, dm.description, dm.category, h.rank::float8 AS rank,
            ts_headline('english', translate(dm.title, chr(2) || chr(3), ''), tq.q,
                        'HighlightAll=true, StartSel=' || chr(2) || ', StopSel=' || chr(3)) AS headline,
            total.n::text AS total
       FROM total CROSS JOIN tq LEFT JOIN ${rows} ON true
      ORDER BY h.rank DESC, h.details_created_at DESC, h.details_hash`;

  /**
   * One word: its postings give the best `limit` (with the rows tied with the last on (rank, time),
   * then ordered by the hash, read with the display columns from the read model's row, as the GIN
   * path orders them) and the exact count, both from the key index alone. The lexeme is read in the
   * select list, where PostgreSQL inlines api.search_term_of (an SQL function in FROM runs as a function
   * scan, started on every execution). null when PostgreSQL's parser does not make the word one plain lexeme (the caller
   * takes the GIN path); a stop word is no lexeme and matches nothing on either path.
   */
  async function searchOneTerm(words: string, limit: number) {
    const n = Math.floor(limit);
    const res = await q<Hit & { total: string; one: boolean }>(pool,
      `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
       term AS MATERIALIZED (SELECT l AS lexeme, numnode(q) = 0 OR l IS NOT NULL AS one FROM (SELECT q, api.search_term_of(q) AS l FROM tq) x),
       top AS (SELECT t.id::text AS id, t.rank FROM api.discovery_search_terms t
                WHERE t.lexeme = (SELECT lexeme FROM term)
                ORDER BY t.rank DESC NULLS LAST, t.details_created_at DESC NULLS LAST FETCH FIRST ${n} ROWS WITH TIES),
       best AS (SELECT top.id, top.rank, dm.details_created_at, dm.details_hash, dm.title, dm.description, dm.category
                  FROM top JOIN api.discovery_missions dm ON dm.id = top.id
                 ORDER BY top.rank DESC, dm.details_created_at DESC, dm.details_hash LIMIT ${n}),
       total AS (SELECT count(*) AS n FROM api.discovery_search_terms t WHERE t.lexeme = (SELECT lexeme FROM term))
       SELECT x.*, (SELECT one FROM term) AS one FROM (${display("(best h CROSS JOIN LATERAL (SELECT h.title, h.description, h.category) dm)")}) x`,
      [words],
    );
    if (res.rows[0] && !res.rows[0].one) return null;
    return { rows: res.rows.filter((r) => r.id !== null).map(({ one: _, ...r }) => r), total: Number(res.rows[0]?.total ?? 0) };
  }

  /** Any query: the GIN match, every match ranked (see the comment inside). */
  async function searchVector(f: { q: string; state?: string; category?: string; guildId?: string; limit: number }) {
    const params: unknown[] = [f.q];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const where = [`ds.search_vector @@ tq.q`];
    if (f.category) where.push(`ds.category_lc = lower(${p(f.category)})`);
    if (f.state) where.push(`ds.state = ${p(f.state)}`);
    if (f.guildId) where.push(`ds.guild_uuid = ${p(f.guildId)}`);
    // One pass over the matches (the GIN bitmap, then one heap visit per match) in the narrow search
    // table (api.discovery_search: a third of the read model's row width, so a common term reads a
    // third of the pages): their ranks are kept (materialized), and both the best `limit` and the exact
    // count read that list. Two scans (one for the page, one for the count) cost 27 ms for 10,054
    // matches at 1M missions; this one 17 ms. Only the best `limit` read the read model's rows.
    const res = await q<Hit & { total: string }>(pool,
      `WITH tq AS (SELECT websearch_to_tsquery('english', $1) AS q),
       matches AS MATERIALIZED (
         SELECT ds.id, ts_rank(ds.search_vector, tq.q) AS rank, ds.details_created_at, ds.details_hash
           FROM api.discovery_search ds CROSS JOIN tq WHERE ${where.join(" AND ")}),
       best AS (SELECT * FROM matches ORDER BY rank DESC, details_created_at DESC, details_hash LIMIT ${Math.floor(f.limit)}),
       total AS (SELECT count(*) AS n FROM matches)
       ${display("(best h JOIN api.discovery_missions dm ON dm.id = h.id)")}`,
      params,
    );
    return { rows: res.rows.filter((r) => r.id !== null), total: Number(res.rows[0]?.total ?? 0) };
  }

  return {
    /**
     * Full-text search over every mission with details: the best `limit` by ts_rank (ties: the newest
     * details, then the hash) and the exact number of matches, one statement. A query of one word and
     * no filter reads the postings (api.discovery_search_terms); any other query the GIN index.
     */
    async search(f: { q: string; state?: string; category?: string; guildId?: string; limit: number; via?: "vector" }) {
      if (f.via !== "vector" && !f.state && !f.category && !f.guildId && ONE_WORD.test(f.q)) {
        const hit = await searchOneTerm(f.q, f.limit);
        if (hit) return hit;
      }
      return searchVector(f);
    },
  };
}
