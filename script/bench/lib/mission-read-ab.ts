// B1 diagnosis aid (not part of `npm run bench`): CPU per GET /missions/:id of several API checkouts
// (each its own module graph, e.g. an unpacked `git archive` of the commit before a change) and of the
// baseline app, all in this process through app.request(), in small INTERLEAVED blocks: on a shared
// machine a burst of other work then hits every side alike (whole passes one after the other, as
// mission-read-cpu.ts runs them, differed by more than the changes measured). Checks first that every
// API checkout answers byte-identical bodies.
//   npx tsx script/bench/lib/mission-read-ab.ts baseline,/tmp/before,/work/wt-b1   (BLOCKS=50 BLOCK=200)
// A checkout outside the repository needs node_modules: `ln -s <repo>/node_modules /tmp/before/`.
import pg from "pg";
import { aidApi, alternate, batch, getter, runAid, type App } from "./aid.ts";
import { baselineApp } from "./baseline-server.ts";

runAid(Number(process.env.MISSIONS ?? 2000), async (ds) => {
  const sides = (process.argv[2] ?? "baseline,.").split(",");
  const block = Number(process.env.BLOCK ?? 200);
  const blocks = Number(process.env.BLOCKS ?? 50);
  const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
  const apps = new Map<string, { app: App; close: () => Promise<void> }>();
  try {
    for (const side of sides) {
      if (side === "baseline") {
        const pool = new pg.Pool({ connectionString: ds.databaseUrl, max: 20 });
        pool.on("error", () => {});
        apps.set(side, { app: baselineApp(pool, ds.chainSchema), close: () => pool.end() });
        continue;
      }
      const api = await aidApi(ds, { root: side });
      apps.set(side, { app: api.app, close: () => api.close() });
    }
    const bodies = new Map<string, string>();
    for (const [name, a] of apps) if (name !== "baseline") await batch(getter(name, a.app, paths.slice(0, 1000), { bodies }), 1000);
    console.log(`API checkouts: byte-identical bodies for ${bodies.size} ids`);
    for (const [name, a] of apps) await batch(getter(name, a.app, paths), 1500); // warm-up
    let offset = 0;
    const cpu = await alternate(sides, blocks, async (side) => {
      const start = offset % (paths.length - block);
      offset += block;
      const c0 = process.cpuUsage();
      await batch(getter(side, apps.get(side)!.app, paths.slice(start, start + block)), block);
      const c = process.cpuUsage(c0);
      return c.user + c.system;
    });
    const per = sides.map((s) => cpu[s].reduce((a, b) => a + b, 0) / (block * blocks));
    sides.forEach((s, i) => console.log(`${s.padEnd(28)} ${per[i]!.toFixed(1)} µs CPU/request (${(per[i]! / per[0]!).toFixed(2)}x ${sides[0]})`));
  } finally {
    for (const a of apps.values()) await a.close().catch(() => {});
  }
});
