// B3: GET /feed (relevance, with the reader's location), page 1 and page 50 (skip 980, take 20), over
// the 1M-mission dataset. Reference: the baseline's flat-table nearby query at 50 km (exact count,
// cells, nearest 1,000) through a bare Hono + pg process (script/bench/lib/discovery-baseline.ts).
// Goals (absolute): page 1 p99 ≤ 50 ms, page 50 ≤ 1.2× page 1. Same points, same rate, pinned servers.
import type { BenchContext, BenchRow, Workload } from "../types.ts";
import { cityPoints, errorsOf, fmt, getJson, startDiscoveryRig, type Load } from "../lib/discovery-bench.ts";
import { errorSummary, ratio } from "../lib/stats.ts";

const RATE = 8; // req/s: latency at a rate the API sustains on one shared core
const TAKE = 20;

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rig = await startDiscoveryRig(ctx);
  try {
    const points = cityPoints(rig.ds, ctx.smoke ? 16 : 200);
    const headers = { Authorization: `Bearer ${rig.token}` };
    const feed = (page: number) => points.map((p) => `/feed?latitude=${p.lat}&longitude=${p.lng}&skip=${(page - 1) * TAKE}&take=${TAKE}`);
    const basePaths = points.map((p) => `/nearby?latitude=${p.lat}&longitude=${p.lng}&radius=50000&limit=1000`);
    const p1 = feed(1);
    const p50 = feed(50);
    const first = await getJson(rig.api.url + p1[0], headers);
    const last = await getJson(rig.api.url + p50[0], headers);
    if (first.status !== 200 || last.status !== 200) throw new Error(`B3: /feed answered ${first.status}/${last.status}: ${JSON.stringify(first.body).slice(0, 300)}`);
    if (!ctx.smoke && (first.body.missions.length !== TAKE || last.body.missions.length !== TAKE)) {
      throw new Error(`B3: expected full pages, got ${first.body.missions.length} and ${last.body.missions.length} (total ${first.body.total})`);
    }
    const base: Load = await rig.pass(rig.base.url, basePaths, { rate: RATE });
    const a1: Load = await rig.pass(rig.api.url, p1, { rate: RATE, headers });
    const a50: Load = await rig.pass(rig.api.url, p50, { rate: RATE, headers });
    ctx.log(`B3: baseline ${fmt(base)}; page 1 ${fmt(a1)}; page 50 ${fmt(a50)}`);
    const errors = errorsOf(base, a1, a50);
    const r1 = ratio(a1.p99, base.p99);
    const r50 = ratio(a50.p99, base.p99);
    const pageRatio = ratio(a50.p99, a1.p99);
    const ok = (_r: number | null, s: Load) => s.p99 <= 50;
    const label = `${rig.ds.missions.toLocaleString("en-US")} missions`;
    const details = { rate: RATE, take: TAKE, points: points.length, total: first.body.total, totalCapped: first.body.totalCapped, baseline: base };
    const note = errors ? { note: `${errorSummary([base, a1, a50])} errors/non-2xx during the load` } : {};
    return [
      {
        id: "B3",
        workload: `GET /feed page 1 (relevance, with location), ${RATE} req/s (${label})`,
        figure: fmt(a1),
        baseline: `${fmt(base)}; flat-table nearby at 50 km (count, cells, nearest 1,000), bare Hono + pg`,
        ratio: r1,
        goal: "p99 ≤ 50 ms",
        met: ctx.smoke ? null : ok(r1, a1) && errors === 0,
        details: { ...details, api: a1 },
        ...note,
      },
      {
        id: "B3",
        workload: `GET /feed page 50 (skip 980), ${RATE} req/s (${label})`,
        figure: `${fmt(a50)}; ${pageRatio ?? "n/a"}× page 1's p99`,
        baseline: `${fmt(base)}; flat-table nearby at 50 km`,
        ratio: r50,
        goal: "p99 ≤ 50 ms; page 50 ≤ 1.2× page 1",
        met: ctx.smoke ? null : ok(r50, a50) && pageRatio !== null && pageRatio <= 1.2 && errors === 0,
        details: { ...details, api: a50, page1: a1, page50VsPage1: pageRatio },
        ...note,
      },
    ];
  } finally {
    await rig.stop();
  }
}

export const workload: Workload = { id: "B3", title: "GET /feed page 1 and 50 vs the nearby query alone", run };
