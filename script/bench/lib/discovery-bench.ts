// Shared by B2–B4 (discovery at 1M missions): the real API and the discovery baseline server (each
// its own process pinned to the server CPU), query points around the dataset's cities, a signed-in
// feed user, and one measured pass = warm-up + constant-arrival-rate load (autocannon on CPU 0).
import crypto from "node:crypto";
import { SignJWT } from "jose";
import pg from "pg";
import type { BenchContext, Stats } from "../types.ts";
import { startBenchApi, type BenchApi } from "./api-server.ts";
import { getDataset, type Dataset } from "./dataset.ts";
import { startDiscoveryBaseline } from "./discovery-baseline.ts";
import { runLoad } from "./load.ts";
import { cpuPerRequest, postmasterPid } from "./proc-cpu.ts";
import { ms, rate } from "./stats.ts";

/** A pass's latencies, plus the CPU it cost per request: the server process (node) and PostgreSQL. */
export type Load = Stats & { non2xx: number; cpuServerUs?: number; cpuPostgresUs?: number };

export interface DiscoveryRig {
  ds: Dataset;
  api: BenchApi;
  base: { url: string; pid: number; stop(): Promise<void> };
  /** Bearer token of a dataset user with guild memberships and engagement (the feed's reader). */
  token: string;
  user: { id: string; address: string };
  /** `pass(url, paths)`: warm-up, then the measured constant-rate pass. */
  pass(url: string, paths: string[], opts: { rate: number; headers?: Record<string, string> }): Promise<Load>;
  stop(): Promise<void>;
}

// 30 s measured: 240 samples at 8 req/s, 450 at 15, so p99 is a percentile and not the worst request or
// two (a 10-s pass has 80–150 samples).
export const DURATIONS = (smoke: boolean) => (smoke ? { warm: 0, measure: 1 } : { warm: 2, measure: 30 });

export async function startDiscoveryRig(ctx: BenchContext): Promise<DiscoveryRig> {
  const ds = await getDataset(ctx);
  const secret = crypto.randomBytes(32).toString("hex");
  const api = await startBenchApi({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema, env: { JWT_SECRET: secret } });
  let base: DiscoveryRig["base"] | undefined;
  try {
    base = await startDiscoveryBaseline({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema });
    const client = new pg.Client({ connectionString: ds.databaseUrl });
    await client.connect();
    let user: { id: string; address: string };
    try {
      // A member of a guild with view/search history: every feed factor has data to read.
      const res = await client.query<{ id: string; address: string }>(
        `SELECT u.id, u.evm_address AS address FROM api.users u
          WHERE EXISTS (SELECT 1 FROM ${ds.chainSchema}.guild_members gm WHERE gm.account = u.evm_address AND gm.active)
            AND EXISTS (SELECT 1 FROM api.discovery_events e WHERE e.user_id = u.id)
          ORDER BY u.evm_address LIMIT 1`);
      user = res.rows[0] ?? (await client.query<{ id: string; address: string }>(`SELECT id, evm_address AS address FROM api.users ORDER BY evm_address LIMIT 1`)).rows[0]!;
    } finally {
      await client.end();
    }
    // The API's own token format (api/services/auth.service.ts), signed with the secret it was given.
    const token = await new SignJWT({ addr: user.address })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(user.id)
      .setIssuer("mission-marketplace-api")
      .setAudience("mission-marketplace")
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime("2h")
      .sign(new TextEncoder().encode(secret));
    const T = DURATIONS(ctx.smoke);
    const b = base;
    const postmaster = await postmasterPid(ds.databaseUrl).catch(() => 0);
    const pids = new Map([[api.url, api.pid], [b.url, b.pid]]);
    return {
      ds, api, base: b, token, user,
      async pass(url, paths, opts) {
        await postgresQuiet(ds.databaseUrl, ctx.log);
        const common = { url, paths, connections: 8, overallRate: opts.rate, ...(opts.headers ? { headers: opts.headers } : {}) };
        if (T.warm > 0) await runLoad({ ...common, durationSeconds: T.warm });
        const pid = pids.get(url);
        const measured = () => runLoad({ ...common, durationSeconds: T.measure });
        // CPU per request of the server and of PostgreSQL (from /proc; absent where /proc is not).
        return pid && postmaster ? cpuPerRequest(pid, postmaster, measured).catch(measured) : measured();
      },
      stop: async () => {
        await Promise.allSettled([api.stop(), b.stop()]);
      },
    };
  } catch (err) {
    await Promise.allSettled([api.stop(), base?.stop()]);
    throw err;
  }
}

/**
 * Waits until no other statement is running on the dataset's database. A saturated pass (the
 * baseline's 5-km and 50-km counts take seconds each) leaves statements running on the server after
 * its client gave up on them, and they would share the server core with the next pass.
 */
export async function postgresQuiet(databaseUrl: string, log: (m: string) => void, timeoutMs = 300_000): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const t0 = Date.now();
    for (let waited = false; ; waited = true) {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database()`);
      if (rows[0]!.n === 0) {
        if (waited) log(`waited ${((Date.now() - t0) / 1000).toFixed(1)} s for PostgreSQL to finish the previous pass's statements`);
        return;
      }
      if (Date.now() - t0 > timeoutMs) throw new Error(`PostgreSQL still runs ${rows[0]!.n} statements after ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    await client.end();
  }
}

/** Query points: a few hundred metres to 2 km around the busiest cities' centres (deterministic). */
export function cityPoints(ds: Dataset, n: number, maxKm = 2): { lat: number; lng: number }[] {
  const cities = ds.cities.slice(0, 8);
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  return Array.from({ length: n }, (_, i) => {
    const c = cities[i % cities.length]!;
    const r = maxKm * Math.sqrt(rnd());
    const t = 2 * Math.PI * rnd();
    const lat = c.lat + (r * Math.cos(t)) / 111.32;
    const lng = c.lng + (r * Math.sin(t)) / (111.32 * Math.cos((c.lat * Math.PI) / 180));
    return { lat: Math.round(lat * 1e5) / 1e5, lng: Math.round(lng * 1e5) / 1e5 };
  });
}

export const fmt = (s: Load) =>
  `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, ${rate(s.rps)}` +
  (s.cpuServerUs !== undefined ? `, CPU/request node ${(s.cpuServerUs / 1000).toFixed(1)} + PostgreSQL ${((s.cpuPostgresUs ?? 0) / 1000).toFixed(1)} ms` : "");
export const errorsOf = (...xs: Load[]) => xs.reduce((a, s) => a + s.errors, 0);

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json() };
}
