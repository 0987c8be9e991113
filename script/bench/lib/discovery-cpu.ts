// B2/B4 diagnosis aid (not part of `npm run bench`): node CPU per request of three apps over the same
// dataset, in this process through app.request() (the node-server layer is common to all three):
//   baseline  the discovery baseline app (discovery-baseline.ts: bare Hono + pg, the raw SQL);
//   route     the API's discovery router alone (validation, service, repository, serialisation);
//   full      the whole API app (every middleware of api/app.ts in front of the same route).
// route − baseline is the endpoint's own cost, full − route the middleware's. CPU time, not wall
// time: it stays meaningful on a busy machine. PROFILE=route|full adds a CPU profile of that app.
//   npx tsx script/bench/lib/discovery-cpu.ts [missions=20000] [search|nearby] [requests=2000]
import pg from "pg";
import { API_POOL } from "../../../api/db/client.ts";
import { createRouter } from "../../../api/routes/create-app.ts";
import { discoveryRouter } from "../../../api/routes/discovery/discovery.index.ts";
import { aidApi, alternate, cpuPer, getter, NODE_ENV, runAid, type App } from "./aid.ts";
import { discoveryBaselineApp, flatTableSql } from "./discovery-baseline.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

runAid(Number(process.argv[2] ?? 20000), async (ds) => {
  const kind = process.argv[3] ?? "search";
  const n = Number(process.argv[4] ?? 2000);
  const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: API_POOL.max, min: API_POOL.warm, idleTimeoutMillis: API_POOL.idleTimeoutMillis });
  pool.on("error", () => {}); // the server stops first
  for (const sql of flatTableSql(ds.chainSchema)) await pool.query(sql);
  const api = await aidApi(ds);
  try {
    await api.deps.services.discovery.warmUp();
    const route = createRouter();
    route.use("*", async (c, next) => {
      c.set("deps", api.deps);
      c.set("user", null);
      await next();
    });
    route.route("/", discoveryRouter());
    const apps: Record<string, App> = { baseline: discoveryBaselineApp(pool), route, full: api.app };
    const c = ds.cities[0]!;
    const near = `latitude=${c.lat}&longitude=${c.lng}&radius=5000&limit=50`;
    const paths: Record<string, string> =
      kind === "nearby"
        ? { baseline: `/nearby?${near}`, route: `/missions/nearby?${near}`, full: `/missions/nearby?${near}` }
        : { baseline: `/search?q=${ds.searchTerms.medium}&limit=50`, route: `/feed/search?q=${ds.searchTerms.medium}&limit=50`, full: `/feed/search?q=${ds.searchTerms.medium}&limit=50` };
    const perRequest = async (k: string, count: number) =>
      (await cpuPer(getter(k, apps[k]!, [paths[k]!], { env: NODE_ENV }), count, { concurrency: 4 })).us;
    const us = await alternate(Object.keys(apps), 4, (k) => perRequest(k, n));
    for (const [k, v] of Object.entries(us)) console.log(`${k.padEnd(8)} µs CPU/request: ${v.map((x) => x.toFixed(0)).join(", ")} (min ${Math.min(...v).toFixed(0)})`);
    const which = process.env.PROFILE;
    if (which && apps[which]) {
      const profile = await profileOf(() => perRequest(which, n * 2), 100);
      console.log(hottest(profile, 1e6, 50));
    }
  } finally {
    await api.close();
    await pool.end();
  }
});
