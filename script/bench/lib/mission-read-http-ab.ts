// B1 diagnosis aid (not part of `npm run bench`): node's and PostgreSQL's CPU per GET /missions/:id over HTTP of several
// API checkouts and the baseline server, each its own process pinned to the server CPU, loaded in
// turn in ROUNDS alternated rounds of SECONDS each (64 connections, max throughput). Over HTTP, unlike
// mission-read-ab.ts (app.request()), the served header path and node's response writing are measured.
// Checks first that every API checkout answers the same bodies and the same headers (values that vary
// per request aside; HEADERS=0: bodies only, compared as parsed JSON, for a change of the header set or the JSON's spacing).
//   npx tsx script/bench/lib/mission-read-http-ab.ts baseline,/tmp/before,/work/wt-b1   (ROUNDS=4 SECONDS=5)
// A side "DIR#FLAGS" starts that checkout's API with more node flags: ".#--allocation-site-pretenuring".
// A checkout outside the repository needs node_modules: `ln -s <repo>/node_modules /tmp/before/`.
import os from "node:os";
import { ensurePostgres } from "../../lib/postgres.ts";
import { startBenchApi } from "./api-server.ts";
import { startBaselineServer } from "./baseline-server.ts";
import { getDataset } from "./dataset.ts";
import { runLoad } from "./load.ts";
import { postgresCpuMicros, postmasterPid, processCpuMicros } from "./proc-cpu.ts";

const VARYING = new Set(["date", "x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset", "keep-alive", "connection"]);

/** "DIR" or "DIR#FLAGS": a checkout, and node flags after the API's own (e.g. ".#--allocation-site-pretenuring"). */
function checkout(side: string): { root: string; nodeArgs: string[] } {
  const [dir = ".", flags = ""] = side.split("#");
  return { root: dir === "." ? process.cwd() : dir, nodeArgs: flags.split(" ").filter(Boolean) };
}

async function main() {
  const sides = (process.argv[2] ?? "baseline,.").split(",");
  const rounds = Number(process.env.ROUNDS ?? 4);
  const seconds = Number(process.env.SECONDS ?? 5);
  const headersToo = process.env.HEADERS !== "0";
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  const servers: { name: string; url: string; pid: number; stop: () => Promise<void> }[] = [];
  try {
    const ds = await getDataset({ smoke: true, missions: Number(process.env.MISSIONS ?? 2000), scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
    const postmaster = await postmasterPid(ds.databaseUrl);
    for (const side of sides) {
      const s = side === "baseline"
        ? await startBaselineServer({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema })
        : await startBenchApi({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema, ...checkout(side) });
      servers.push({ name: side, ...s });
    }
    const apis = servers.filter((s) => s.name !== "baseline");
    for (const p of paths.slice(0, 300)) {
      const seen = await Promise.all(apis.map(async (s) => {
        const res = await fetch(s.url + p);
        if (!headersToo) return `${res.status}\n${JSON.stringify(await res.json())}`;
        const headers = [...res.headers].filter(([k]) => !VARYING.has(k)).map(([k, v]) => `${k}: ${v}`).sort().join("\n");
        return `${res.status}\n${headers}\n\n${await res.text()}`;
      }));
      for (const [i, text] of seen.entries()) if (text !== seen[0]) throw new Error(`${apis[i]!.name} answers ${p} otherwise:\n${seen[0]}\n---\n${text}`);
    }
    console.log(`API checkouts: same status, ${headersToo ? "headers and body" : "body (parsed)"} for 300 ids`);
    for (const s of servers) await runLoad({ url: s.url, paths, connections: 64, durationSeconds: 2 }); // warm-up
    const cpu = servers.map(() => 0);
    const pgCpu = servers.map(() => 0);
    const reqs = servers.map(() => 0);
    const rps: number[][] = servers.map(() => []);
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? [...servers.keys()].reverse() : [...servers.keys()];
      for (const i of order) {
        const s = servers[i]!;
        const c0 = processCpuMicros(s.pid);
        const p0 = postgresCpuMicros(postmaster);
        const res = await runLoad({ url: s.url, paths, connections: 64, durationSeconds: seconds });
        if (res.errors || res.non2xx) throw new Error(`${s.name}: ${res.errors} errors, ${res.non2xx} non-2xx`);
        cpu[i]! += processCpuMicros(s.pid) - c0;
        pgCpu[i]! += postgresCpuMicros(postmaster) - p0;
        reqs[i]! += res.requests;
        rps[i]!.push(Math.round(res.rps));
      }
    }
    const per = cpu.map((c, i) => c / reqs[i]!);
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; ${rounds} rounds of ${seconds} s`);
    const perPg = pgCpu.map((c, i) => c / reqs[i]!);
    servers.forEach((s, i) =>
      console.log(`${s.name.padEnd(28)} ${per[i]!.toFixed(1)} µs CPU/request (${(per[i]! / per[0]!).toFixed(2)}x ${servers[0]!.name}) + PostgreSQL ${perPg[i]!.toFixed(1)} µs, req/s ${rps[i]!.join(" ")}`));
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await pgh.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
