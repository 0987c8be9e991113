// B1 diagnosis aid (not part of `npm run bench`): CPU time per GET /missions/:id of the real API app
// vs the baseline app, both in this process through app.request() (no HTTP server: the node-server
// layer is common to both), and the number of SQL queries per request. CPU time, not wall time, so
// it stays meaningful on a busy machine. ROUNDS alternated passes; PROFILE=api|baseline adds a CPU
// profile of one more pass.
//   npx tsx script/bench/lib/mission-read-cpu.ts [missions=2000] [requests=3000]
import pg from "pg";
import { aidApi, alternate, countQueries, cpuPer, getter, runAid, type App } from "./aid.ts";
import { baselineApp } from "./baseline-server.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

async function measure(name: string, app: App, pool: pg.Pool, paths: string[], n: number) {
  const t0 = performance.now();
  const q = countQueries(pool as unknown as { query: unknown });
  const cpu = await cpuPer(getter(name, app, paths), n, { warmUp: 500 });
  q.stop();
  const wall = performance.now() - t0;
  console.log(`${name}: ${cpu.us.toFixed(0)} µs CPU/request (user ${cpu.user.toFixed(0)}, sys ${cpu.system.toFixed(0)}), ${(q.count / (n + 500)).toFixed(2)} queries/request, ${Math.round(((n + 500) * 1000) / wall)} req/s wall`);
  return cpu.us;
}

runAid(Number(process.argv[2] ?? 2000), async (ds) => {
  const n = Number(process.argv[3] ?? 3000);
  const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
  const api = await aidApi(ds);
  const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: 20 });
  pool.on("error", () => {});
  const sides = {
    baseline: { app: baselineApp(pool, ds.chainSchema) as App, pool },
    api: { app: api.app as App, pool: api.deps.database.pool as unknown as pg.Pool },
  };
  try {
    // The least CPU a request of each side is the figure least disturbed by other processes.
    const us = await alternate(["baseline", "api"] as const, Number(process.env.ROUNDS ?? 2), (k) =>
      measure(k.padEnd(8), sides[k].app, sides[k].pool, paths, n));
    const best = { baseline: Math.min(...us.baseline), api: Math.min(...us.api) };
    console.log(`least CPU/request: baseline ${best.baseline.toFixed(0)} µs, API ${best.api.toFixed(0)} µs (${(best.api / best.baseline).toFixed(2)}x)`);
    const which = process.env.PROFILE === "baseline" ? "baseline" : process.env.PROFILE ? "api" : undefined;
    if (which) {
      const profile = await profileOf(() => measure(`${which} (profiled)`, sides[which].app, sides[which].pool, paths, n));
      console.log(hottest(profile, 1e6, 45));
    }
  } finally {
    await api.close();
    await pool.end();
  }
});
