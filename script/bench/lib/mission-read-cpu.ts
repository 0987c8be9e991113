// B1 diagnosis aid (not part of `npm run bench`): CPU time per GET /missions/:id of the real API app
// vs the baseline app, both in this process through app.request() (no HTTP server: the node-server
// layer is common to both), and the number of SQL queries per request. CPU time, not wall time, so
// it stays meaningful on a busy machine.
//   npx tsx script/bench/lib/mission-read-cpu.ts [missions=2000] [requests=3000]
import pg from "pg";
import { createServer } from "../../../api/app.ts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { baselineApp } from "./baseline-server.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";
import { getDataset } from "./dataset.ts";

type Fetcher = { request(path: string): Response | Promise<Response> };

async function measure(name: string, app: Fetcher, pool: pg.Pool, paths: string[], n: number, concurrency = 16) {
  let queries = 0;
  const orig = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...a: unknown[]) => (queries++, orig(...a));
  const runBatch = async (count: number) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (i < count) {
          const p = paths[i++ % paths.length]!;
          const res = await app.request(p);
          if (res.status !== 200) throw new Error(`${name} ${p}: ${res.status}`);
          await res.arrayBuffer();
        }
      }),
    );
  };
  await runBatch(500); // warm-up
  queries = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await runBatch(n);
  const cpu = process.cpuUsage(cpu0);
  const wall = performance.now() - t0;
  (pool as unknown as { query: unknown }).query = orig;
  const us = (cpu.user + cpu.system) / n;
  console.log(`${name}: ${us.toFixed(0)} µs CPU/request (user ${(cpu.user / n).toFixed(0)}, sys ${(cpu.system / n).toFixed(0)}), ${(queries / n).toFixed(2)} queries/request, ${Math.round((n * 1000) / wall)} req/s wall`);
  return us;
}

async function main() {
  const N = Number(process.argv[2] ?? 2000);
  const n = Number(process.argv[3] ?? 3000);
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  try {
    const ds = await getDataset({ smoke: true, missions: N, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
    const api = await createServer({
      overrides: {
        NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
        DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
        JWT_SECRET: "b1-cpu-secret-b1-cpu-secret-0123456789", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
        KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000",
      },
    });
    const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: 20 });
    pool.on("error", () => {});
    const base = baselineApp(pool, ds.chainSchema);
    try {
      // ROUNDS alternated passes; the least CPU a request of each side is the figure least disturbed by
      // other processes on a shared machine.
      const best = { baseline: Infinity, api: Infinity };
      for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
        best.baseline = Math.min(best.baseline, await measure("baseline", base, pool, paths, n));
        best.api = Math.min(best.api, await measure("API     ", api.app, api.deps.database.pool, paths, n));
      }
      console.log(`least CPU/request: baseline ${best.baseline.toFixed(0)} µs, API ${best.api.toFixed(0)} µs (${(best.api / best.baseline).toFixed(2)}x)`);
      if (process.env.PROFILE) {
        // Where the API's extra CPU goes: a CPU profile of one more API pass.
        const profile = await profileOf(() =>
          measure(`API (${process.env.PROFILE})`, process.env.PROFILE === "baseline" ? base : api.app, process.env.PROFILE === "baseline" ? pool : api.deps.database.pool, paths, n));
        console.log(hottest(profile, 1e6, 45));
      }
    } finally {
      await api.close();
      await pool.end();
    }
  } finally {
    await pgh.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
