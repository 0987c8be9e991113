// Map A/B aid over HTTP, as B2 loads the API (not part of `npm run bench`): two bench API processes,
// the checkout at OLD and this one, over one dataset (AB_DATABASE_URL, a loaded bench dataset, schema
// `chain`), each warmed with 600 requests, then passes of 300 requests of the map at 15 req/s (B2's
// rate), old and new alternated (ABBA), and the server process's CPU a request of each pass (/proc).
// At this rate a request costs two to three times what it costs back to back (cold caches between
// requests), which is what the bench's "CPU/request node" reports.
//   OLD=/tmp/old AB_DATABASE_URL=postgres://… npx tsx script/bench/lib/discovery-http-ab.ts [radius=5000] [pairs=2]
import { startBenchApi } from "./api-server.ts";
import { processCpuMicros } from "./proc-cpu.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const url = process.env.AB_DATABASE_URL;
  const oldDir = process.env.OLD;
  if (!url || !oldDir) throw new Error("OLD=<other checkout> and AB_DATABASE_URL=<a loaded bench dataset> are required");
  const radius = Number(process.argv[2] ?? 5000);
  const pairs = Number(process.argv[3] ?? 2);
  const apis = {
    old: await startBenchApi({ databaseUrl: url, chainSchema: "chain", root: oldDir }),
    new: await startBenchApi({ databaseUrl: url, chainSchema: "chain" }),
  };
  try {
    const path = `/missions/nearby?latitude=52.52&longitude=13.405&radius=${radius}&limit=50`;
    for (const a of Object.values(apis)) for (let i = 0; i < 600; i++) await (await fetch(a.url + path)).arrayBuffer();
    const ms: Record<"old" | "new", number[]> = { old: [], new: [] };
    const order = Array.from({ length: pairs }, () => ["old", "new", "new", "old"] as const).flat();
    for (const k of order) {
      const api = apis[k];
      const c0 = processCpuMicros(api.pid);
      const start = performance.now();
      const inflight: Promise<unknown>[] = [];
      for (let i = 0; i < 300; i++) {
        const wait = start + i * (1000 / 15) - performance.now();
        if (wait > 0) await sleep(wait);
        inflight.push(fetch(api.url + path).then((r) => r.arrayBuffer()));
      }
      await Promise.all(inflight);
      ms[k].push((processCpuMicros(api.pid) - c0) / 300 / 1000);
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const show = (xs: number[]) => `${xs.map((x) => x.toFixed(2)).join(" ")} (median ${med(xs).toFixed(2)})`;
    console.log(`nearby ${radius} m at 15 req/s, node CPU a request (ms): old ${show(ms.old)}; new ${show(ms.new)}; new/old ${(med(ms.new) / med(ms.old)).toFixed(3)}`);
  } finally {
    await apis.old.stop();
    await apis.new.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
