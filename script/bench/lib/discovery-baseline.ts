// Baselines of B2–B4: a bare Hono + pg process (no middleware, no validation, no services) running
// the best raw SQL for the question each endpoint answers, written out here on its own:
//   GET /nearby?latitude&longitude&radius&window&limit  (B2, and B3's "the nearby query alone")
//     the open, unexpired missions within an exact radius, nearest first: one GiST K-nearest-neighbour
//     scan over api.geo_point (migration 0005) bounded by the radius' box, joined to the chain's
//     missions (current details hash), stopping after `window` rows (the rows the API's answer is
//     computed from: clusters over the nearest 1,000 and the count); the nearest `limit` as JSON.
//   GET /search?q&limit  (B4) raw tsvector SQL: the GIN match and ts_rank over api.mission_details,
//     the best `limit` by rank, title as JSON (no chain join, no headline, no count).
// Same transport as the API (HTTP/1.1 keep-alive, JSON), its own process pinned to the server CPU.
//   BASELINE_DATABASE_URL=... BASELINE_CHAIN_SCHEMA=chain PORT=... node --import tsx discovery-baseline.ts
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { boundingBox, mercatorPoint } from "../../../api/services/discovery/geo.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { pinned, SERVER_CPU } from "./pin.ts";

const R = 6_371_008.8;
const merc = mercatorPoint;

export function nearbySql(chainSchema: string): string {
  const s = `"${chainSchema}"`;
  // $1 now, $2 lat, $3 lng, $4 radius, $5..$8 box (Mercator), $9 $10 query point, $11 window
  return `SELECT m.id, m.poster, m.reward::text AS reward, m.expires_at::text AS expires_at, d.latitude, d.longitude,
                 (2 * ${R} * asin(least(1, sqrt(power(sin(radians(d.latitude - $2::float8) / 2), 2) +
                   cos(radians($2::float8)) * cos(radians(d.latitude)) * power(sin(radians(d.longitude - $3::float8) / 2), 2))))) AS distance
            FROM api.mission_details d
            JOIN ${s}.missions m ON m.on_chain_id = d.on_chain_id::numeric AND lower(m.details_hash) = d.details_hash
           WHERE d.latitude IS NOT NULL AND d.longitude IS NOT NULL AND d.on_chain_id IS NOT NULL
             AND api.geo_point(d.latitude, d.longitude) <@ box(point($5, $6), point($7, $8))
             AND (2 * ${R} * asin(least(1, sqrt(power(sin(radians(d.latitude - $2::float8) / 2), 2) +
                   cos(radians($2::float8)) * cos(radians(d.latitude)) * power(sin(radians(d.longitude - $3::float8) / 2), 2))))) <= $4
             AND m.state = 'Open' AND m.expires_at > $1
           ORDER BY api.geo_point(d.latitude, d.longitude) <-> point($9, $10)
           LIMIT $11`;
}

export const SEARCH_SQL = `SELECT d.details_hash, d.title, ts_rank(d.search_vector, q) AS rank
    FROM api.mission_details d, websearch_to_tsquery('english', $1) q
   WHERE d.search_vector @@ q
   ORDER BY rank DESC LIMIT $2`;

function main() {
  const pool = new pg.Pool({ connectionString: process.env.BASELINE_DATABASE_URL, max: 20 }); // the API's pool size
  pool.on("error", () => {});
  const nearby = nearbySql(process.env.BASELINE_CHAIN_SCHEMA ?? "chain");
  const app = new Hono();
  app.get("/nearby", async (c) => {
    const lat = Number(c.req.query("latitude"));
    const lng = Number(c.req.query("longitude"));
    const radius = Number(c.req.query("radius") ?? 5000);
    const window = Number(c.req.query("window") ?? 1001);
    const limit = Number(c.req.query("limit") ?? 50);
    const box = boundingBox(lat, lng, radius);
    const [x1, y1] = merc(box.south, box.west);
    const [x2, y2] = merc(box.north, box.east);
    const [qx, qy] = merc(lat, lng);
    const res = await pool.query(nearby, [Math.floor(Date.now() / 1000), lat, lng, radius, x1, y1, x2, y2, qx, qy, window]);
    return c.json({ missions: res.rows.slice(0, limit), count: res.rows.length });
  });
  app.get("/search", async (c) => {
    const res = await pool.query(SEARCH_SQL, [c.req.query("q") ?? "", Number(c.req.query("limit") ?? 50)]);
    return c.json({ results: res.rows });
  });
  app.get("/ready", async (c) => c.json({ ok: (await pool.query("SELECT 1")).rowCount === 1 }));
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
    await waitFor("the discovery baseline server", async () => (await fetch(`${url}/ready`)).ok, { timeoutMs: 60_000, abort: proc.crashed });
  } catch (err) {
    await proc.stop().catch(() => {});
    throw new Error(`${(err as Error).message}\n${proc.tail()}`);
  }
  return { url, pid: proc.pid, stop: () => proc.stop("SIGTERM", 10_000) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
