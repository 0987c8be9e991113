// B1 diagnosis aid (not part of `npm run bench`): CPU per GET /missions/:id of several API checkouts
// (each its own module graph, e.g. an unpacked `git archive` of the commit before a change) and of the
// baseline app, all in this process through app.request(), in small INTERLEAVED blocks: on a shared
// machine a burst of other work then hits every side alike (whole passes one after the other, as
// mission-read-cpu.ts runs them, differed by more than the changes measured). Checks first that every
// API checkout answers byte-identical bodies.
//   npx tsx script/bench/lib/mission-read-ab.ts baseline,/tmp/before,/work/wt-b1   (BLOCKS=50 BLOCK=200)
// A checkout outside the repository needs node_modules: `ln -s <repo>/node_modules /tmp/before/`.
import pg from "pg";
import { ensurePostgres } from "../../lib/postgres.ts";
import { baselineApp } from "./baseline-server.ts";
import { getDataset } from "./dataset.ts";

type Fetcher = { request(path: string): Response | Promise<Response> };

const run = (name: string, app: Fetcher, paths: string[], bodies?: Map<string, string>) => async (i: number) => {
  const p = paths[i % paths.length]!;
  const res = await app.request(p);
  if (res.status !== 200) throw new Error(`${name} ${p}: ${res.status}`);
  const text = await res.text();
  if (!bodies) return;
  const seen = bodies.get(p);
  if (seen === undefined) bodies.set(p, text);
  else if (seen !== text) throw new Error(`${name}: another body for ${p}\n${seen}\n${text}`);
};

async function batch(f: (i: number) => Promise<unknown>, count: number, concurrency = 16) {
  let i = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (i < count) await f(i++);
  }));
}

async function main() {
  const sides = (process.argv[2] ?? "baseline,.").split(",");
  const block = Number(process.env.BLOCK ?? 200);
  const blocks = Number(process.env.BLOCKS ?? 50);
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  const apps: { name: string; app: Fetcher; close: () => Promise<void> }[] = [];
  try {
    const ds = await getDataset({ smoke: true, missions: Number(process.env.MISSIONS ?? 2000), scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
    for (const side of sides) {
      if (side === "baseline") {
        const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: 20 });
        pool.on("error", () => {});
        apps.push({ name: side, app: baselineApp(pool, ds.chainSchema), close: () => pool.end() });
        continue;
      }
      const root = side === "." ? process.cwd() : side;
      const { createServer } = (await import(`${root}/api/app.ts`)) as typeof import("../../../api/app.ts");
      const api = await createServer({
        overrides: {
          NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: ds.databaseUrl, CHAIN_SCHEMA: ds.chainSchema, CHAIN_ID: "31337",
          DEPLOYMENT_FILE: "/nonexistent/deployment.json", INDEXER_URL: "http://127.0.0.1:9", RPC_URL: "http://127.0.0.1:9",
          JWT_SECRET: "b1-ab-secret-b1-ab-secret-0123456789", MIGRATE_ON_START: "false", REACTORS_ENABLED: "false",
          KEEPER_INTERVAL_MS: "0", RATE_LIMIT_ANON_PER_MIN: "1000000",
        },
      });
      apps.push({ name: side, app: api.app, close: () => api.close() });
    }
    const bodies = new Map<string, string>();
    for (const a of apps) if (a.name !== "baseline") await batch(run(a.name, a.app, paths.slice(0, 1000), bodies), 1000);
    console.log(`API checkouts: byte-identical bodies for ${bodies.size} ids`);
    for (const a of apps) await batch(run(a.name, a.app, paths), 1500); // warm-up
    const cpu = apps.map(() => 0);
    let offset = 0;
    for (let b = 0; b < blocks; b++) {
      const order = b % 2 ? [...apps.keys()].reverse() : [...apps.keys()];
      for (const i of order) {
        const slice = paths.slice(offset % (paths.length - block), (offset % (paths.length - block)) + block);
        offset += block;
        const c0 = process.cpuUsage();
        await batch(run(apps[i]!.name, apps[i]!.app, slice), block);
        const c = process.cpuUsage(c0);
        cpu[i]! += c.user + c.system;
      }
    }
    const per = cpu.map((c) => c / (block * blocks));
    apps.forEach((a, i) => console.log(`${a.name.padEnd(28)} ${per[i]!.toFixed(1)} µs CPU/request (${(per[i]! / per[0]!).toFixed(2)}x ${apps[0]!.name})`));
  } finally {
    for (const a of apps) await a.close().catch(() => {});
    await pgh.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
