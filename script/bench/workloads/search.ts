// B4: GET /feed/search with a rare (~0.01%), a medium (~1%) and a common (~25%) title term over the
// 1M-mission dataset, against raw tsvector SQL over the baseline's flat table (GIN match + ts_rank,
// best 50 with their ts_headline titles and the exact count, through a bare Hono + pg process:
// script/bench/lib/discovery-baseline.ts /search). Sanity first: the API's relevanceScores must be the
// raw query's ranks, its highlighted titles the raw ts_headline's, and its total the raw exact count.
import type { BenchContext, BenchRow, Workload } from "../types.ts";
import { errorsOf, fmt, getJson, startDiscoveryRig, type Load } from "../lib/discovery-bench.ts";
import { errorSummary, ratio } from "../lib/stats.ts";

const RATES = { rare: 15, medium: 8, common: 1 } as const; // req/s: the common term ranks ~250k rows per request
const LIMIT = 50;
// Issue 17's goal for the rare and the medium term: p99 ≤ 30 ms as well as ≤ 1.2× the baseline (the
// common term: the ratio only).
const ABSOLUTE_MS: Partial<Record<"rare" | "medium" | "common", number>> = { rare: 30, medium: 30 };

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const rig = await startDiscoveryRig(ctx);
  try {
    const rows: BenchRow[] = [];
    for (const kind of ["rare", "medium", "common"] as const) {
      const term = rig.ds.searchTerms[kind];
      const apiPaths = [`/feed/search?q=${encodeURIComponent(term)}&limit=${LIMIT}`];
      const basePaths = [`/search?q=${encodeURIComponent(term)}&limit=${LIMIT}`];
      const [a, b] = await Promise.all([getJson(rig.api.url + apiPaths[0]), getJson(rig.base.url + basePaths[0])]);
      if (a.status !== 200 || b.status !== 200) throw new Error(`B4: ${term} answered ${a.status}/${b.status}`);
      const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
      const apiRanks = (a.body.results as { relevanceScore: number }[]).map((x) => x.relevanceScore);
      const baseRanks = (b.body.results as { rank: number }[]).map((x) => r6(x.rank));
      if (JSON.stringify(apiRanks) !== JSON.stringify(baseRanks)) {
        throw new Error(`B4: ${term}: API ranks ${apiRanks.slice(0, 5).join(",")}… differ from raw SQL ${baseRanks.slice(0, 5).join(",")}…`);
      }
      const apiMarks = (a.body.results as { highlightedTitle: string }[]).map((x) => x.highlightedTitle);
      const baseMarks = (b.body.results as { highlighted: string }[]).map((x) => x.highlighted);
      if (JSON.stringify(apiMarks) !== JSON.stringify(baseMarks)) {
        throw new Error(`B4: ${term}: API highlights ${apiMarks.slice(0, 3).join(" | ")}… differ from raw ts_headline ${baseMarks.slice(0, 3).join(" | ")}…`);
      }
      if (a.body.total !== b.body.count || a.body.totalCapped !== false) {
        throw new Error(`B4: ${term}: API total ${a.body.total} (capped ${a.body.totalCapped}) vs the exact count ${b.body.count}`);
      }
      const rate = ctx.smoke ? 5 : RATES[kind];
      const base: Load = await rig.pass(rig.base.url, basePaths, { rate });
      const api: Load = await rig.pass(rig.api.url, apiPaths, { rate });
      ctx.log(`B4 ${kind} "${term}" (${a.body.total}${a.body.totalCapped ? "+" : ""} hits): baseline ${fmt(base)}; API ${fmt(api)}`);
      const r = ratio(api.p99, base.p99);
      const errors = errorsOf(base, api);
      const absolute = ABSOLUTE_MS[kind];
      rows.push({
        id: "B4",
        workload: `GET /feed/search ${kind} term "${term}" (${a.body.totalCapped ? `≥ ${a.body.total}` : a.body.total} hits), ${rate} req/s (${rig.ds.missions.toLocaleString("en-US")} missions)`,
        figure: fmt(api),
        baseline: `${fmt(base)}; flat table, GIN + ts_rank best ${LIMIT} with ts_headline titles + exact count, bare Hono + pg`,
        ratio: r,
        goal: absolute === undefined ? "p99 ≤ 1.2× baseline" : `p99 ≤ 1.2× baseline; p99 ≤ ${absolute} ms`,
        met: ctx.smoke ? null : r !== null && r <= 1.2 && (absolute === undefined || api.p99 <= absolute) && errors === 0,
        details: { term, kind, rate, limit: LIMIT, total: a.body.total, totalCapped: a.body.totalCapped, api, baseline: base },
        ...(errors ? { note: `${errorSummary([base, api])} errors/non-2xx during the load` } : {}),
      });
    }
    return rows;
  } finally {
    await rig.stop();
  }
}

export const workload: Workload = { id: "B4", title: "GET /feed/search vs raw tsvector SQL", run };
