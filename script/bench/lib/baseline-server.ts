// B1's baseline: a bare Hono + pg endpoint, GET /missions/:id, no middleware, one primary-key query
// of the same shape the API needs (the mission joined with its details, guild and the two users'
// profiles) in which PostgreSQL itself builds the response JSON (json_build_object: amounts, ISO
// times, short names, the neighbourhood cell centre), sent through as text. Written on its own from
// the spec's rules, importing nothing of the API or the indexer, so it is the best plain alternative
// and the difference between the two servers is the API's own machinery (routing with validation,
// middleware, services, view code, logging). The workload checks that both answer the same JSON.
//
// Run as its own process (startBaselineServer spawns this file pinned to the server CPU):
//   BASELINE_DATABASE_URL=... BASELINE_CHAIN_SCHEMA=chain PORT=... node --import tsx baseline-server.ts
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { API_POOL } from "../../../api/db/client.ts";
import { API_NODE_FLAGS } from "../../../api/node-flags.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { pinned, SERVER_CPU } from "./pin.ts";

// Spec: amounts are decimal strings of 6-decimal base units; times ISO 8601 UTC with milliseconds.
const amount = (x: string) => `CASE WHEN ${x} IS NULL THEN NULL ELSE div(${x}, 1000000)::text || '.' || lpad(mod(${x}, 1000000)::text, 6, '0') END`;
const isoTime = (x: string) => `to_char(to_timestamp(${x}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
// A non-party sees the centre of the geohash-6 cell (15 bits per axis), to 6 decimals, half up.
const cellCentre = (deg: string, span: number) =>
  `floor((${-span} + (least(32767, floor((${deg} + ${span}) / ${(2 * span) / 32768})) + 0.5) * ${(2 * span) / 32768}) * 1e6 + 0.5) / 1e6`;
const person = (addr: string, u: string) =>
  `json_build_object('id', coalesce(${u}.id::text, lower(${addr})), 'evmAddress', lower(${addr}), ` +
  `'resolvedName', coalesce(nullif(${u}.display_name, ''), left(lower(${addr}), 6) || '…' || right(lower(${addr}), 4)))`;

/** The single-row query: the whole response body as JSON text. */
export function baselineMissionQuery(chainSchema: string): string {
  const s = `"${chainSchema}"`;
  return `SELECT json_build_object('data', json_build_object(
            'id', m.id, 'onChainId', m.on_chain_id::text, 'title', coalesce(d.title, ''),
            'description', coalesce(d.description, ''), 'state', m.state, 'category', coalesce(d.category, ''),
            'rewardAmount', ${amount("m.reward")},
            'poster', ${person("m.poster", "pu")},
            'performer', CASE WHEN m.performer IS NULL THEN NULL ELSE ${person("m.performer", "fu")} END,
            'guild', CASE WHEN m.guild_uuid IS NULL THEN NULL ELSE json_build_object('id', m.guild_uuid, 'name', coalesce(g.name, '')) END,
            'location', CASE WHEN d.latitude IS NULL OR d.longitude IS NULL OR d.radius IS NULL THEN NULL
                        ELSE json_build_object('latitude', ${cellCentre("d.latitude", 90)}, 'longitude', ${cellCentre("d.longitude", 180)},
                                               'radius', d.radius, 'precision', 2) END,
            'expiresAt', ${isoTime("m.expires_at")}, 'createdAt', ${isoTime("m.created_at")},
            'minReputation', d.min_reputation, 'premium', coalesce(d.premium, false),
            'releasedAmount', ${amount("m.released")}, 'refundedAmount', ${amount("m.refunded")},
            'remainingAmount', ${amount("CASE WHEN m.state IN ('Open', 'Accepted', 'Submitted', 'Disputed') THEN greatest(m.reward - m.released - m.refunded, 0) ELSE 0 END")},
            'escrowAddress', lower(m.escrow_address), 'ddrAmount', ${amount("m.ddr_amount")}, 'proofHash', m.proof_hash,
            'metadata', coalesce(d.metadata, '{}'::jsonb),
            'acceptedAt', ${isoTime("m.accepted_at")}, 'completedAt', ${isoTime("m.completed_at")},
            'refundAmount', ${amount("m.refund_amount")}))::text AS body
            FROM ${s}.missions m
            LEFT JOIN api.mission_details d ON d.details_hash = lower(m.details_hash) AND d.on_chain_id = m.on_chain_id::text AND d.escrow_address = m.escrow_address
            LEFT JOIN ${s}.guilds g ON g.id = m.guild_uuid
            LEFT JOIN api.users pu ON pu.evm_address = lower(m.poster)
            LEFT JOIN api.users fu ON fu.evm_address = lower(m.performer)
           WHERE m.id = $1`;
}

/** The whole baseline app: one route, one query. */
export function baselineApp(pool: pg.Pool, chainSchema: string) {
  const sql = baselineMissionQuery(chainSchema);
  const app = new Hono();
  app.get("/missions/:id", async (c) => {
    // A named prepared statement (parsed and planned once per connection), as the API's read is.
    const res = await pool.query<{ body: string }>({ name: "b1-baseline-mission", text: sql, values: [c.req.param("id")] });
    const row = res.rows[0];
    return row
      ? c.body(row.body, 200, { "Content-Type": "application/json" })
      : c.json({ error: { code: "MISSION_NOT_FOUND", message: "not found" } }, 404);
  });
  app.get("/ready", async (c) => c.json({ ok: (await pool.query("SELECT 1")).rowCount === 1 }));
  return app;
}

function main() {
  const pool = new pg.Pool({ connectionString: process.env.BASELINE_DATABASE_URL, max: API_POOL.max, min: API_POOL.warm, idleTimeoutMillis: API_POOL.idleTimeoutMillis }); // the API's pool settings
  pool.on("error", () => {});
  const app = baselineApp(pool, process.env.BASELINE_CHAIN_SCHEMA ?? "chain");
  const server = serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: "127.0.0.1" });
  const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

/** Spawns the baseline server pinned to the server CPU. */
export async function startBaselineServer(opts: { databaseUrl: string; chainSchema: string; nodeArgs?: string[] }) {
  const port = await freePort();
  // The API's node flags (api/node-flags.ts): what they buy is the runtime's, not the API's code, so the
  // baseline gets them too.
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, [...API_NODE_FLAGS, ...(opts.nodeArgs ?? []), "--import", "tsx", path.join(import.meta.dirname, "baseline-server.ts")]);
  const proc = spawnManaged("bench-baseline", cmd, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", PORT: String(port), BASELINE_DATABASE_URL: opts.databaseUrl, BASELINE_CHAIN_SCHEMA: opts.chainSchema },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor("the baseline server", async () => (await fetch(`${url}/ready`)).ok, { timeoutMs: 180_000, abort: proc.crashed });
  } catch (err) {
    await proc.stop().catch(() => {});
    throw new Error(`${(err as Error).message}\n${proc.tail()}`);
  }
  return { url, pid: proc.pid, stop: () => proc.stop("SIGTERM", 10_000) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
