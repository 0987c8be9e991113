// B1's baseline: a bare Hono + pg endpoint, GET /missions/:id, no middleware, one primary-key query
// of the same shape the API needs (the mission joined with its details, guild and the two users'
// profiles) and the same JSON. It reuses only the API's pure formatting helpers (amounts, the
// location-privacy cell), so the JSON is byte-for-byte the API's and the difference between the two
// servers is the API's own machinery (routing with validation, middleware, services, logging).
//
// Run as its own process (startBaselineServer spawns this file pinned to the server CPU):
//   BASELINE_DATABASE_URL=... BASELINE_CHAIN_SCHEMA=chain PORT=... node --import tsx baseline-server.ts
import path from "node:path";
import { pathToFileURL } from "node:url";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import pg from "pg";
import { formatAmount } from "../../../api/lib/money.ts";
import { viewLocation } from "../../../api/services/discovery/location-privacy.ts";
import { repoRoot } from "../../lib/paths.ts";
import { freePort, waitFor } from "../../lib/ports.ts";
import { spawnManaged } from "../../lib/process.ts";
import { pinned, SERVER_CPU } from "./pin.ts";

/** The single-row query, same joins as api/repositories/missions.repository.ts findById. */
export function baselineMissionQuery(chainSchema: string): string {
  const s = `"${chainSchema}"`;
  return `SELECT m.id, m.on_chain_id::text, m.escrow_address, m.poster, m.performer, m.guild_uuid, g.name AS guild_name,
                 m.reward::text, m.ddr_amount::text, m.state, m.proof_hash, m.expires_at::text, m.created_at::text,
                 m.accepted_at::text, m.completed_at::text, d.title, d.description, d.category, d.latitude, d.longitude,
                 d.radius, d.metadata, pu.id AS poster_id, pu.display_name AS poster_name,
                 fu.id AS performer_id, fu.display_name AS performer_name
            FROM ${s}.missions m
            LEFT JOIN api.mission_details d ON d.details_hash = lower(m.details_hash)
            LEFT JOIN ${s}.guilds g ON g.id = m.guild_uuid
            LEFT JOIN api.users pu ON pu.evm_address = lower(m.poster)
            LEFT JOIN api.users fu ON fu.evm_address = lower(m.performer)
           WHERE m.id = $1`;
}

type Row = Record<string, string | number | null> & { metadata: Record<string, unknown> | null };
const iso = (s: string | number | null) => (s === null ? null : new Date(Number(s) * 1000).toISOString());
const who = (address: string, id: string | number | null, name: string | number | null) => {
  const a = address.toLowerCase();
  return { id: id ?? a, evmAddress: a, resolvedName: name || `${a.slice(0, 6)}…${a.slice(-4)}` };
};

function toJson(r: Row) {
  const loc =
    r.latitude === null || r.longitude === null || r.radius === null
      ? null
      : viewLocation(Number(r.latitude), Number(r.longitude), false); // anonymous viewer: the cell center
  return {
    data: {
      id: r.id,
      onChainId: r.on_chain_id,
      title: r.title ?? "",
      description: r.description ?? "",
      state: r.state,
      category: r.category ?? "",
      rewardAmount: formatAmount(BigInt(r.reward as string)),
      poster: who(r.poster as string, r.poster_id, r.poster_name),
      performer: r.performer ? who(r.performer as string, r.performer_id, r.performer_name) : null,
      guild: r.guild_uuid ? { id: r.guild_uuid, name: r.guild_name ?? "" } : null,
      location: loc && { latitude: loc.latitude, longitude: loc.longitude, radius: r.radius, precision: loc.precision },
      expiresAt: iso(r.expires_at),
      createdAt: iso(r.created_at),
      escrowAddress: (r.escrow_address as string).toLowerCase(),
      ddrAmount: formatAmount(BigInt(r.ddr_amount as string)),
      proofHash: r.proof_hash,
      metadata: r.metadata ?? {},
      acceptedAt: iso(r.accepted_at),
      completedAt: iso(r.completed_at),
    },
  };
}

/** The whole baseline app: one route, one query. */
export function baselineApp(pool: pg.Pool, chainSchema: string) {
  const sql = baselineMissionQuery(chainSchema);
  const app = new Hono();
  app.get("/missions/:id", async (c) => {
    const res = await pool.query<Row>(sql, [c.req.param("id")]);
    const row = res.rows[0];
    return row ? c.json(toJson(row)) : c.json({ error: { code: "MISSION_NOT_FOUND", message: "not found" } }, 404);
  });
  app.get("/ready", async (c) => c.json({ ok: (await pool.query("SELECT 1")).rowCount === 1 }));
  return app;
}

function main() {
  const pool = new pg.Pool({ connectionString: process.env.BASELINE_DATABASE_URL, max: 20 }); // the API's pool size
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
  const [cmd, args] = pinned(SERVER_CPU, process.execPath, [...(opts.nodeArgs ?? []), "--import", "tsx", path.join(import.meta.dirname, "baseline-server.ts")]);
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
