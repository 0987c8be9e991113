// B2/B4 diagnosis aid (not part of `npm run bench`): node CPU per request of three apps over the same
// dataset, in this process through app.request() (the node-server layer is common to all three):
//   baseline  the discovery baseline app (discovery-baseline.ts: bare Hono + pg, the raw SQL);
//   route     the API's discovery router alone (validation, service, repository, serialisation);
//   full      the whole API app (every middleware of api/app.ts in front of the same route).
// route − baseline is the endpoint's own cost, full − route the middleware's. CPU time, not wall
// time: it stays meaningful on a busy machine. PROFILE=route|full adds a CPU profile of that app.
//   npx tsx script/bench/lib/discovery-cpu.ts [missions=20000] [search|nearby] [requests=2000]
import pg from "pg";
import { createServer } from "../../../api/app.ts";
import { API_POOL } from "../../../api/db/client.ts";
import { createRouter } from "../../../api/routes/create-app.ts";
import { discoveryRouter } from "../../../api/routes/discovery/discovery.index.ts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { discoveryBaselineApp, flatTableSql } from "./discovery-baseline.ts";
import { getDataset } from "./dataset.ts";
import { hottest, profileOf } from "./mission-read-profile.ts";

// What @hono/node-server passes as the app's env: the client address comes from the socket. No
// `outgoing`: the request path writes its headers onto a served response's ServerResponse when there
// is one, and a stand-in object here made every request of the full app fail (500).
const NODE_ENV = { incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 40000, remoteFamily: "IPv4" }, headers: {} } };
type App = { request(path: string, init?: RequestInit, env?: unknown): Response | Promise<Response> };

/** µs of CPU per request over `n` requests, 4 at a time, after a warm-up. */
async function cpuPerRequest(app: App, path: string, n: number): Promise<number> {
  const batch = async (count: number) => {
    let i = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (i++ < count) {
          const res = await app.request(path, undefined, NODE_ENV);
          if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
  };
  await batch(300);
  const c0 = process.cpuUsage();
  await batch(n);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

async function main() {
  const N = Number(process.argv[2] ?? 20000);
  const kind = process.argv[3] ?? "search";
  const n = Number(process.argv[4] ?? 2000);
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  try {
    const ds = await getDataset({ smoke: true, missions: N, scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: API_POOL.max, min: API_POOL.warm, idleTimeoutMillis: API_POOL.idleTimeoutMillis });
    pool.on("error", () => {}); // the server stops first
    for (const sql of flatTableSql(ds.chainSchema)) await pool.query(sql);
    const api = await createServer({
      overrides: {
        NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
        DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
        JWT_SECRET: "discovery-cpu-secret-0123456789abcdef", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
        KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000",
      },
    });
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
      const us: Record<string, number[]> = { baseline: [], route: [], full: [] };
      for (let round = 0; round < 4; round++) for (const k of Object.keys(apps)) us[k]!.push(await cpuPerRequest(apps[k]!, paths[k]!, n));
      for (const [k, v] of Object.entries(us)) console.log(`${k.padEnd(8)} µs CPU/request: ${v.map((x) => x.toFixed(0)).join(", ")} (min ${Math.min(...v).toFixed(0)})`);
      const which = process.env.PROFILE;
      if (which && apps[which]) {
        const profile = await profileOf(() => cpuPerRequest(apps[which]!, paths[which]!, n * 2), 100);
        console.log(hottest(profile, 1e6, 50));
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
