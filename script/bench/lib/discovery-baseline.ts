// Baselines of B2–B4: a bare Hono + pg process (no middleware, no validation, no services) running
// the best raw SQL over the best schema for the question each endpoint answers, written out here on
// its own. The schema is the baseline's own flat table (schema "baseline", built once from the
// dataset at start-up): one row per mission, exactly the columns the question needs, with the index
// that serves it; nothing of the product's tables or joins.
//   GET /nearby?latitude&longitude&radius&limit  (B2) the open, unexpired missions within an exact
//     radius: the exact count, the count per neighbourhood cell (what the map's clusters need), and
//     the nearest `limit` (GiST K-nearest-neighbour on an earth-centred cube, the chord = radius).
//   GET /search?q&limit  (B4) the GIN match and ts_rank: the best `limit` by rank with their highlighted
//     titles (ts_headline), and the exact count.
// Same transport as the API (HTTP/1.1 keep-alive, JSON), its own process pinned to the server CPU.
//   BASELINE_DATABASE_URL=... BASELINE_CHAIN_SCHEMA=chain PORT=... node --import tsx discovery-baseline.ts
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { API_POOL, prefill } from "../../../api/db/client.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { pinned, SERVER_CPU } from "./pin.ts";

const R = 6_371_008.8;
const chord = (d: number) => 2 * R * Math.sin(Math.min(Math.PI, d / R) / 2);

/** The flat table and its indexes, from the dataset (idempotent; a no-op once built). */
export function flatTableSql(chainSchema: string): string[] {
  const s = `"${chainSchema}"`;
  const ecef = (lat: string, lng: string) =>
    `cube(ARRAY[${R} * cos(radians(${lat})) * cos(radians(${lng})), ${R} * cos(radians(${lat})) * sin(radians(${lng})), ${R} * sin(radians(${lat}))])`;
  const cell = (deg: string, span: number) =>
    `floor((-${span} + (least(32767, floor((${deg} + ${span}) / (${2 * span}::float8 / 32768))) + 0.5) * (${2 * span}::float8 / 32768)) * 1e6 + 0.5) / 1e6`;
  return [
    `CREATE EXTENSION IF NOT EXISTS cube`,
    `CREATE SCHEMA IF NOT EXISTS baseline`,
    `CREATE TABLE IF NOT EXISTS baseline.missions AS
       SELECT m.id, m.state, m.expires_at, m.reward, d.title, d.description, d.latitude, d.longitude,
              ${cell("d.latitude", 90)} AS cell_lat, ${cell("d.longitude", 180)} AS cell_lng,
              ${ecef("d.latitude", "d.longitude")} AS geo, d.search_vector, d.created_at AS details_created_at, d.details_hash
         FROM ${s}.missions m JOIN api.mission_details d ON d.details_hash = lower(m.details_hash) AND d.on_chain_id = m.on_chain_id::text AND d.escrow_address = m.escrow_address`,
    `CREATE INDEX IF NOT EXISTS missions_geo_idx ON baseline.missions USING gist (geo) WHERE state = 'Open' AND geo IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS missions_search_idx ON baseline.missions USING gin (search_vector)`,
    `ANALYZE baseline.missions`,
  ];
}

// $1 now, $2 lat, $3 lng, $4 chord, $5 limit
export const NEARBY_SQL = `WITH q AS (SELECT cube(ARRAY[${R} * cos(radians($2::float8)) * cos(radians($3::float8)),
                                             ${R} * cos(radians($2::float8)) * sin(radians($3::float8)), ${R} * sin(radians($2::float8))]) AS c),
  hit AS (SELECT b.* FROM baseline.missions b, q
           WHERE b.state = 'Open' AND b.expires_at > $1 AND b.geo <@ cube_enlarge(q.c, $4::float8, 3) AND cube_distance(b.geo, q.c) <= $4::float8)
  SELECT (SELECT json_agg(x) FROM (SELECT h.id, h.title, h.reward::text AS reward, h.latitude, h.longitude FROM hit h, q
                                    ORDER BY h.geo <-> q.c, h.id LIMIT $5) x) AS missions,
         (SELECT json_agg(c) FROM (SELECT cell_lat, cell_lng, count(*)::int AS n FROM hit GROUP BY 1, 2) c) AS cells`;

// One scan of the matches, kept, read twice (best `limit` and count): faster than two scans (17 vs
// 27 ms for 10k matches at 1M), so the baseline is the best form of the question, as the API's. The
// question is the endpoint's (spec: title, description, relevance and the highlighted title of each
// result): the best `limit` get PostgreSQL's ts_headline, as the API's do (about 40 us a title here,
// 2 ms for 50: leaving it out answered a smaller question). Ties are broken as the API breaks them
// (rank, newest details, details_hash), so B4's sanity check can compare the two lists in order: at
// 3M the common term has equal (rank, created_at) keys in its best 50.
export const SEARCH_SQL = `WITH q AS (SELECT websearch_to_tsquery('english', $1) AS q),
  r AS MATERIALIZED (SELECT b.id, b.title, b.description, ts_rank(b.search_vector, q.q) AS rank, b.details_created_at, b.details_hash FROM baseline.missions b, q
                      WHERE b.search_vector @@ q.q)
  SELECT (SELECT json_agg(x) FROM (SELECT best.id, best.title, best.description, best.rank,
                                          ts_headline('english', best.title, q.q, 'HighlightAll=true, StartSel=<em>, StopSel=</em>') AS highlighted
                                     FROM (SELECT * FROM r ORDER BY r.rank DESC, r.details_created_at DESC, r.details_hash LIMIT $2) best, q
                                    ORDER BY best.rank DESC, best.details_created_at DESC, best.details_hash) x) AS results,
         (SELECT count(*)::int FROM r) AS count`;

/** The baseline's two endpoints over `pool` (no middleware, no validation, no services). */
export function discoveryBaselineApp(pool: pg.Pool) {
  const run = async (signal: AbortSignal, config: pg.QueryConfig) => {
    const client = await pool.connect();
    try {
      return signal.aborted ? null : await client.query(config);
    } finally {
      client.release();
    }
  };
  const app = new Hono();
  app.get("/nearby", async (c) => {
    const lat = Number(c.req.query("latitude"));
    const lng = Number(c.req.query("longitude"));
    const radius = Number(c.req.query("radius") ?? 5000);
    const limit = Number(c.req.query("limit") ?? 50);
    const res = await run(c.req.raw.signal, { name: "nearby", text: NEARBY_SQL, values: [Math.floor(Date.now() / 1000), lat, lng, chord(radius), limit] });
    if (!res) return c.body(null, 503); // the client is gone
    const cells: { n: number }[] = res.rows[0].cells ?? [];
    return c.json({ missions: res.rows[0].missions ?? [], cells, count: cells.reduce((a, x) => a + x.n, 0) });
  });
  app.get("/search", async (c) => {
    const res = await run(c.req.raw.signal, { name: "search", text: SEARCH_SQL, values: [c.req.query("q") ?? "", Number(c.req.query("limit") ?? 50)] });
    if (!res) return c.body(null, 503); // the client is gone
    return c.json({ results: res.rows[0].results ?? [], count: res.rows[0].count });
  });
  return app;
}

function main() {
  // The API's pool settings. A statement runs at most 10 s (the load generator's timeout), and a
  // request whose client has gone is not started: a saturated pass (the 5-km and 50-km counts take
  // seconds each) must not leave a backlog running into the next pass.
  const pool = new pg.Pool({
    connectionString: process.env.BASELINE_DATABASE_URL, max: API_POOL.max, min: API_POOL.warm, idleTimeoutMillis: API_POOL.idleTimeoutMillis,
    statement_timeout: 10_000,
  });
  pool.on("error", () => {});
  const built = (async () => {
    const client = new pg.Client({ connectionString: process.env.BASELINE_DATABASE_URL });
    await client.connect();
    try {
      for (const sql of flatTableSql(process.env.BASELINE_CHAIN_SCHEMA ?? "chain")) await client.query(sql);
    } finally {
      await client.end();
    }
    // As the API's pool at start (api/db/client.ts prefill): the warm connections opened and planned.
    await prefill(pool, API_POOL.warm, [`EXPLAIN SELECT * FROM baseline.missions WHERE id = '' AND search_vector @@ websearch_to_tsquery('english', 'warm')`]);
  })();
  const app = discoveryBaselineApp(pool);
  app.get("/ready", async (c) => {
    await built;
    return c.json({ ok: (await pool.query("SELECT 1")).rowCount === 1 });
  });
  const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
  const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** Spawns the discovery baseline server pinned to the server CPU. */
export async function startDiscoveryBaseline(opts: { databaseUrl: string; chainSchema: string }) {
  const port = await freePort();
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "discovery-baseline.ts")]);
  const proc = spawnManaged("bench-discovery-baseline", cmd, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", PORT: String(port), BASELINE_DATABASE_URL: opts.databaseUrl, BASELINE_CHAIN_SCHEMA: opts.chainSchema },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor("the discovery baseline server", async () => (await fetch(`${url}/ready`)).ok, { timeoutMs: 1_800_000, abort: proc.crashed });
  } catch (err) {
    await proc.stop().catch(() => {});
    throw new Error(`${(err as Error).message}\n${proc.tail()}`);
  }
  return { url, pid: proc.pid, stop: () => proc.stop("SIGTERM", 10_000) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
