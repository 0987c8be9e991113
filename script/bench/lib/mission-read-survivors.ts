// B1 diagnosis aid (not part of `npm run bench`): what of a served read outlives a scavenge. Runs the
// bench API (or, SIDE=baseline, B1's baseline server) with the inspector, loads it at a constant RATE
// for SECONDS, and samples allocations with V8's heap profiler leaving out objects a minor GC collected:
// what is left was promoted to the old generation (or is still alive), the garbage that full
// collections (mark-compacts) later pay for. Prints bytes a request by the last four frames.
//   npx tsx script/bench/lib/mission-read-survivors.ts            (MISSIONS=20000 RATE=1200 SECONDS=15 SIDE=api NODE_ARGS=)
import WebSocket from "ws";
import { ensurePostgres } from "../../lib/postgres.ts";
import { freePort } from "../../lib/ports.ts";
import { startBenchApi } from "./api-server.ts";
import { startBaselineServer } from "./baseline-server.ts";
import { getDataset } from "./dataset.ts";
import { runLoad } from "./load.ts";

const pgh = await ensurePostgres({ ephemeral: true, log: () => {} });
const ds = await getDataset({ smoke: true, missions: Number(process.env.MISSIONS ?? 20000), scratchDir: "/tmp", shared: new Map(), log: () => {}, postgresUrl: async () => pgh.url } as any);
const paths = (await ds.missionIds(5000)).map((id) => `/missions/${id}`);
const port = await freePort();
const server = { databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema, nodeArgs: [...(process.env.NODE_ARGS ?? "").split(" ").filter(Boolean), `--inspect=127.0.0.1:${port}`] };
const api = process.env.SIDE === "baseline" ? await startBaselineServer(server) : await startBenchApi(server);
await runLoad({ url: api.url, paths, connections: 64, durationSeconds: 3 });
const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
await new Promise((r) => ws.once("open", r));
let id = 0;
const pending = new Map<number, (v: any) => void>();
ws.on("message", (d) => { const m = JSON.parse(String(d)); if (m.id && pending.has(m.id)) { pending.get(m.id)!(m.result); pending.delete(m.id); } });
const post = (method: string, params: object = {}) => new Promise<any>((r) => { const i = ++id; pending.set(i, r); ws.send(JSON.stringify({ id: i, method, params })); });
await post("HeapProfiler.enable");
await post("HeapProfiler.startSampling", { samplingInterval: 512, includeObjectsCollectedByMinorGC: false, includeObjectsCollectedByMajorGC: true });
const res = await runLoad({ url: api.url, paths, connections: 64, durationSeconds: Number(process.env.SECONDS ?? 15), overallRate: Number(process.env.RATE ?? 1200) });
const { profile } = await post("HeapProfiler.stopSampling");
const n = res.requests;
const by = new Map<string, number>();
let total = 0;
const walk = (node: any, stack: string[]) => {
  const cf = node.callFrame;
  const name = `${cf.functionName || "(anon)"} ${cf.url.replace(/.*node_modules\//, "nm/").replace(/.*\/work\/main\//, "")}:${cf.lineNumber}`;
  const s = [...stack, name];
  if (node.selfSize) { const key = s.slice(-4).join(" < "); by.set(key, (by.get(key) ?? 0) + node.selfSize); total += node.selfSize; }
  for (const c of node.children ?? []) walk(c, s);
};
walk(profile.head, []);
console.log(`requests ${n}, p99 ${res.p99}; surviving a scavenge (sampled): ${(total / n).toFixed(0)} bytes/request, ${(total / 1e6).toFixed(1)} MB`);
for (const [k, v] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(v / n).toFixed(1).padStart(8)}  ${k}`);
ws.close();
await api.stop(); await pgh.stop();
process.exit(0);
