// B1 profiling aid (not part of `npm run bench`): loads a dataset, runs the real API with
// --cpu-prof under 64-connection GET /missions/:id load, and prints the hottest functions (self
// time) and the hottest files of the API process.
//   npx tsx script/bench/lib/mission-read-profile.ts [missions=2000] [seconds=10] [api|baseline]
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../lib/paths.ts";
import { ensurePostgres } from "../../lib/postgres.ts";
import { startBenchApi } from "./api-server.ts";
import { getDataset } from "./dataset.ts";
import { runLoad } from "./load.ts";
import { startBaselineServer } from "./baseline-server.ts";
import { cpuPerRequest, postmasterPid, processIo } from "./proc-cpu.ts";

/** Frames of this checkout (any worktree), named relative to it. */
const ROOT_URL = pathToFileURL(repoRoot).href + "/";

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

/** A CPU profile of this process while `work` runs (sampling every `intervalUs`). */
export async function profileOf(work: () => Promise<unknown>, intervalUs = 200): Promise<Profile> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await session.post("Profiler.start");
    await work();
    return (await session.post("Profiler.stop")).profile as unknown as Profile;
  } finally {
    session.disconnect();
  }
}

/** Self time per function and per package, over the samples of the last `windowSeconds` (the load, not the start-up). */
export function hottest(profile: Profile, windowSeconds: number, top = 30) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = profile.endTime - windowSeconds * 1e6;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    if (t >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, t] of self) {
    const cf = byId.get(id)!.callFrame;
    const url = cf.url.replace(ROOT_URL, "").replace(/.*node_modules\//, "nm/");
    fn.set(`${cf.functionName || "(anon)"} ${url}:${cf.lineNumber}`, (fn.get(`${cf.functionName || "(anon)"} ${url}:${cf.lineNumber}`) ?? 0) + t);
    const f = url.startsWith("nm/") ? url.split("/").slice(0, url.split("/")[1]!.startsWith("@") ? 3 : 2).join("/") : url || cf.functionName;
    file.set(f, (file.get(f) ?? 0) + t);
  }
  // Inclusive time of the API's own frames and Hono's middleware (a sample counts once per frame).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = byId.get(cur)!.callFrame;
      if (!cf.url.startsWith(`${ROOT_URL}api/`) && !/hono\/dist\/(middleware|validator|hono-base)|zod-openapi|node-server\/dist\/index/.test(cf.url)) continue;
      const k = `${cf.functionName || "(anon)"} ${cf.url.replace(ROOT_URL, "").replace(/.*node_modules\//, "nm/")}:${cf.lineNumber}`;
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + t);
    }
  }
  const fmt = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`).join("\n");
  return `-- self time by function --\n${fmt(fn)}\n-- by package/file --\n${fmt(file)}\n-- inclusive, API and Hono frames --\n${fmt(incl)}`;
}

async function main() {
  const N = Number(process.argv[2] ?? 2000);
  const seconds = Number(process.argv[3] ?? 10);
  const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
  const dir = fs.mkdtempSync("/tmp/b1-prof-");
  try {
    const ds = await getDataset({ smoke: true, missions: N, scratchDir: dir, shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url });
    const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
    const target = process.argv[4] ?? "api";
    const nodeArgs = ["--cpu-prof", `--cpu-prof-dir=${dir}`];
    const server = target === "baseline"
      ? await startBaselineServer({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema, nodeArgs })
      : await startBenchApi({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema, nodeArgs });
    const pm = await postmasterPid(ds.databaseUrl);
    try {
      await runLoad({ url: server.url, paths, connections: 64, durationSeconds: 3 });
      const io0 = processIo(server.pid);
      const r = await cpuPerRequest(server.pid, pm, () => runLoad({ url: server.url, paths, connections: 64, durationSeconds: seconds }));
      const io1 = processIo(server.pid);
      const per = (k: keyof typeof io0) => ((io1[k] - io0[k]) / Math.max(1, r.requests)).toFixed(2);
      console.log(`${target} per request: read syscalls ${per("syscr")}, write syscalls ${per("syscw")}, bytes read ${per("rchar")}, bytes written ${per("wchar")}`);
      console.log(`${target}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, CPU/request: server ${r.cpuServerUs} µs, postgres ${r.cpuPostgresUs} µs`);
    } finally {
      await server.stop();
    }
    const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    if (!file) throw new Error("no profile written");
    console.log(hottest(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Profile, seconds));
  } finally {
    await pgh.stop();
  }
}

if (process.argv[1]?.endsWith("mission-read-profile.ts")) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
