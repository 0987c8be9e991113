// B2: GET /missions/nearby at 500 m, 5 km and 50 km over the 1M-mission dataset, against the best raw
// SQL index query (script/bench/lib/discovery-baseline.ts /nearby: the GiST K-nearest-neighbour scan
// of the same window, served by a bare Hono + pg process). Same query points (around the 8 busiest
// cities' centres), same constant arrival rate, both pinned to the server CPU, autocannon on CPU 0.
// Sanity first: the API's totalCount must equal the baseline's exact count, its clusters must sum to
// no more than it (single missions are not clusters).
import type { BenchContext, BenchRow, Workload } from "../types.ts";
import { cityPoints, errorsOf, fmt, getJson, startDiscoveryRig, type Load } from "../lib/discovery-bench.ts";
import { errorSummary, ratio } from "../lib/stats.ts";

const RADII = [500, 5_000, 50_000] as const;
const RATE = 15; // req/s: well under both servers' capacity on one loaded core (latency, not throughput)

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rig = await startDiscoveryRig(ctx);
  try {
    const points = cityPoints(rig.ds, ctx.smoke ? 16 : 200);
    const rows: BenchRow[] = [];
    for (const radius of RADII) {
      const apiPaths = points.map((p) => `/missions/nearby?latitude=${p.lat}&longitude=${p.lng}&radius=${radius}`);
      const basePaths = points.map((p) => `/nearby?latitude=${p.lat}&longitude=${p.lng}&radius=${radius}`);
      for (let i = 0; i < Math.min(8, points.length); i++) {
        const [a, b] = await Promise.all([getJson(rig.api.url + apiPaths[i]), getJson(rig.base.url + basePaths[i])]);
        if (a.status !== 200 || b.status !== 200) throw new Error(`B2: ${apiPaths[i]} answered ${a.status}/${b.status}: ${JSON.stringify(a.body).slice(0, 300)}`);
        const clustered = (a.body.clusters as { count: number }[]).reduce((n, c) => n + c.count, 0);
        if (a.body.totalCount !== b.body.count || a.body.totalCapped !== false || clustered > b.body.count) {
          throw new Error(`B2: API totalCount ${a.body.totalCount} (clustered ${clustered}) vs baseline exact count ${b.body.count} at ${apiPaths[i]}`);
        }
      }
      const sample = (await getJson(rig.api.url + apiPaths[0])).body;
      const base: Load = await rig.pass(rig.base.url, basePaths, { rate: RATE });
      const api: Load = await rig.pass(rig.api.url, apiPaths, { rate: RATE });
      ctx.log(`B2 ${radius} m: baseline ${fmt(base)}; API ${fmt(api)}`);
      const r = ratio(api.p99, base.p99);
      const errors = errorsOf(base, api);
      const absolute = radius === 5_000;
      const met = ctx.smoke ? null : r !== null && r <= 1.3 && (!absolute || api.p99 <= 15) && errors === 0;
      const label = radius >= 1000 ? `${radius / 1000} km` : `${radius} m`;
      rows.push({
        id: "B2",
        workload: `GET /missions/nearby ${label}, ${RATE} req/s (${rig.ds.missions.toLocaleString("en-US")} missions)`,
        figure: fmt(api),
        baseline: `${fmt(base)}; flat table + GiST cube: exact count, cells, KNN page; bare Hono + pg`,
        ratio: r,
        goal: absolute ? "p99 ≤ 1.3× baseline; p99 ≤ 15 ms" : "p99 ≤ 1.3× baseline",
        met,
        details: { radius, rate: RATE, points: points.length, api, baseline: base, sampleTotalCount: sample.totalCount, sampleCapped: sample.totalCapped, sampleClusters: sample.clusters?.length },
        ...(errors ? { note: `${errorSummary([base, api])} errors/non-2xx during the load` } : {}),
      });
    }
    return rows;
  } finally {
    await rig.stop();
  }
}

export const workload: Workload = { id: "B2", title: "GET /missions/nearby vs the raw KNN index query", run };
