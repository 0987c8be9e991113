// B1: GET /missions/:id with random ids, 64 connections: the real API vs a bare Hono + pg
// primary-key endpoint returning the same JSON (script/bench/lib/baseline-server.ts), each in its own
// process pinned to the server CPU (with PostgreSQL), autocannon pinned to the other CPU.
//   1. the two servers' JSON must be identical for a sample of ids (else the comparison is void);
//   2. max throughput: closed loop, 64 connections, baseline and API alternated twice (best of each,
//      so a burst of noise from other processes on the machine hits both sides alike);
//   3. latency: constant arrival rate at 70% of the baseline's max, same rate for both, over connections
//      opened first: 3 rounds of alternated passes whose steal time stays under 1 % (up to 7 tried),
//      each side's pass of median p99 reported (p50, p99), and the node CPU a request of each side
//      (median over the same passes: issue 40's row B1 asks ≤ 2× at that rate).
import os from "node:os";
import { isDeepStrictEqual } from "node:util";
import type { BenchContext, BenchRow, Stats, Workload } from "../types.ts";
import { startBenchApi } from "../lib/api-server.ts";
import { startBaselineServer } from "../lib/baseline-server.ts";
import { getDataset } from "../lib/dataset.ts";
import { cpuPerRequest, postmasterPid } from "../lib/proc-cpu.ts";
import { runLoad } from "../lib/load.ts";
import { errorSummary, ms, rate, ratio } from "../lib/stats.ts";

const CONNECTIONS = 64;

type Load = Stats & { non2xx: number; cpuServerUs: number; cpuPostgresUs: number; stealMs: number };
const errorsOf = (s: Load) => s.errors;

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const ds = await getDataset(ctx);
  const smoke = ctx.smoke;
  const ids = await ds.missionIds(smoke ? 500 : 20_000);
  const paths = ids.map((id) => `/missions/${id}`);
  const T = smoke ? { warm: 0, max: 1, rounds: 1, latency: 1, latencyRounds: 1, latencyTries: 1 } : { warm: 3, max: 10, rounds: 2, latency: 15, latencyRounds: 3, latencyTries: 7 };
  const postmaster = await postmasterPid(ds.databaseUrl);

  const servers = await Promise.allSettled([
    startBenchApi({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema }),
    startBaselineServer({ databaseUrl: ds.databaseUrl, chainSchema: ds.chainSchema }),
  ]);
  const api = servers[0].status === "fulfilled" ? servers[0].value : undefined;
  const base = servers[1].status === "fulfilled" ? servers[1].value : undefined;
  try {
    if (!api || !base) throw servers.find((s): s is PromiseRejectedResult => s.status === "rejected")!.reason;

    // 1. Same JSON from both, for ids of every state.
    const sample = [...ids.slice(0, 20), ...(await ds.missionIds(3, { state: "Completed" })), ...(await ds.missionIds(3, { state: "Disputed" }))];
    for (const id of sample) {
      const [a, b] = await Promise.all([api.url, base.url].map((u) => fetch(`${u}/missions/${id}`).then(async (r) => ({ status: r.status, body: await r.json() }))));
      if (a!.status !== 200 || !isDeepStrictEqual(a, b)) {
        throw new Error(`B1: the API and the baseline disagree on /missions/${id}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
      }
    }
    ctx.log(`B1: API and baseline JSON identical for ${sample.length} ids`);

    // CPU time per request of the server process and of PostgreSQL next to the wall-clock figures:
    // on a shared machine it shows where the difference is even when latencies are noisy.
    const load = (server: { url: string; pid: number }, extra: { durationSeconds: number; overallRate?: number }): Promise<Load> =>
      cpuPerRequest(server.pid, postmaster, () => runLoad({ url: server.url, paths, connections: CONNECTIONS, ...extra }));
    // Warm-up (JIT, pools, PostgreSQL buffers), not measured.
    if (T.warm) {
      await load(base, { durationSeconds: T.warm });
      await load(api, { durationSeconds: T.warm });
    }

    // 2. Max throughput, alternated.
    const maxBase: Load[] = [];
    const maxApi: Load[] = [];
    for (let r = 0; r < T.rounds; r++) {
      maxBase.push(await load(base, { durationSeconds: T.max }));
      maxApi.push(await load(api, { durationSeconds: T.max }));
      const [b, a] = [maxBase.at(-1)!, maxApi.at(-1)!];
      ctx.log(`B1: round ${r + 1}: baseline ${Math.round(b.rps)} req/s (CPU/req ${b.cpuServerUs} µs + pg ${b.cpuPostgresUs} µs), API ${Math.round(a.rps)} req/s (CPU/req ${a.cpuServerUs} µs + pg ${a.cpuPostgresUs} µs)`);
    }
    const best = (xs: Load[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
    const tb = best(maxBase);
    const ta = best(maxApi);

    // 3. Latency at a constant arrival rate both can sustain.
    const arrival = Math.max(10, Math.round(tb.rps * 0.7));
    // Alternated passes (the order swapped each round), each side's pass of median p99 reported: one
    // stall of the shared machine in a 15-s pass decides its p99 (docs/decisions.md "B1: where the p99
    // comes from"). A round counts only when neither pass lost more than 1 % of the machine's CPU time
    // to the host (steal, /proc/stat): up to `latencyTries` rounds are run to get `latencyRounds` such
    // rounds; if fewer come, every round counts and the p99 row cannot be met (docs/decisions.md "B1: the
    // objects V8 tenured").
    const stealLimitMs = Math.round(T.latency * 1000 * os.cpus().length * 0.01);
    const rounds: { base: Load; api: Load; counted: boolean }[] = [];
    const counted = () => rounds.filter((x) => x.counted);
    for (let r = 0; counted().length < T.latencyRounds && r < T.latencyTries; r++) {
      const pass = (server: typeof api) => load(server, { durationSeconds: T.latency, overallRate: arrival });
      const [b, a] = r % 2 ? [undefined, await pass(api)] : [await pass(base), undefined];
      const round = { base: b ?? (await pass(base)), api: a ?? (await pass(api)) };
      const ok = Math.max(round.base.stealMs, round.api.stealMs) <= stealLimitMs;
      rounds.push({ ...round, counted: ok });
      ctx.log(`B1: at ${arrival} req/s, pass ${r + 1}: baseline p50 ${ms(round.base.p50)} p99 ${ms(round.base.p99)} (steal ${round.base.stealMs} ms), API p50 ${ms(round.api.p50)} p99 ${ms(round.api.p99)} (steal ${round.api.stealMs} ms)${ok ? "" : `: not counted (steal over ${stealLimitMs} ms)`}`);
    }
    const used = counted().length >= T.latencyRounds ? counted() : rounds;
    const latBase = used.map((x) => x.base);
    const latApi = used.map((x) => x.api);
    const medianBy = <T>(xs: T[], key: (x: T) => number) => [...xs].sort((a, b) => key(a) - key(b))[Math.floor(xs.length / 2)]!;
    const medianOf = (xs: number[]) => medianBy(xs, (x) => x);
    const lb = medianBy(latBase, (x) => x.p99);
    const la = medianBy(latApi, (x) => x.p99);
    const cpuBase = medianOf(latBase.map((x) => x.cpuServerUs));
    const cpuApi = medianOf(latApi.map((x) => x.cpuServerUs));
    const cpuRatio = ratio(cpuApi, cpuBase);
    const stealNote = used === rounds && rounds.some((x) => !x.counted)
      ? ` Only ${counted().length} of ${rounds.length} rounds had steal under ${stealLimitMs} ms: the figures are the median of all rounds, and the row cannot be met on them.`
      : "";

    const loads = [...maxBase, ...maxApi, ...rounds.flatMap((x) => [x.base, x.api])];
    const errors = loads.map(errorsOf).reduce((a, b) => a + b, 0);
    const label = `${ds.missions.toLocaleString("en-US")} missions`;
    const thrRatio = ratio(ta.rps, tb.rps);
    const p99Ratio = ratio(la.p99, lb.p99);
    const details = { dataset: { missions: ds.missions, load: ds.load }, connections: CONNECTIONS, ids: ids.length, durations: T };
    const errNote = errors ? ` ${errorSummary(loads)} errors/non-2xx responses during the load.` : "";
    // The cause of a miss, from the profiles (script/bench/lib/mission-read-profile.ts, mission-read-cpu.ts) and the CPU
    // counters of this run: same query, same JSON and the same syscalls per request on both sides.
    const cause =
      `Both sides run one named prepared statement a request and answer the same JSON; the API's server process ` +
      `used ${ta.cpuServerUs} µs CPU per request vs ${tb.cpuServerUs} µs (PostgreSQL ${ta.cpuPostgresUs} vs ${tb.cpuPostgresUs} µs). ` +
      `The difference is the API's own machinery: both read the body as JSON text built by PostgreSQL (the API's ` +
      `with the privacy lens: the parties' name visibility on their user rows and, for a signed-in viewer, the party and guild checks); ` +
      `the API adds the request path (request id, 10 more response headers, rate limit, metrics and the access log), ` +
      `the route's param check and the routing (Hono's TrieRouter with its matches remembered per path shape, api/lib/shape-router.ts; ` +
      `the RegExpRouter refuses GET /missions/:id beside the static GET /missions/nearby). ` +
      `Wall-clock figures were taken with the 2 cores shared by other jobs (load average in the JSON).`;
    return [
      {
        id: "B1",
        workload: `GET /missions/:id, random ids, max throughput, ${CONNECTIONS} connections (${label})`,
        figure: `${rate(ta.rps)} (p50 ${ms(ta.p50)}, p99 ${ms(ta.p99)}; CPU/req ${ta.cpuServerUs} µs + pg ${ta.cpuPostgresUs} µs)`,
        baseline: `${rate(tb.rps)} (p50 ${ms(tb.p50)}, p99 ${ms(tb.p99)}; CPU/req ${tb.cpuServerUs} µs + pg ${tb.cpuPostgresUs} µs), bare Hono + pg`,
        ratio: thrRatio,
        goal: "throughput ≥ 0.8× baseline",
        met: smoke ? null : thrRatio !== null && thrRatio >= 0.8 && errors === 0,
        details: { ...details, api: maxApi, baseline: maxBase },
        ...(errNote || (!smoke && (thrRatio ?? 0) < 0.8) ? { note: `${(thrRatio ?? 0) < 0.8 ? cause : ""}${errNote}`.trim() } : {}),
      },
      {
        id: "B1",
        workload: `GET /missions/:id, random ids, constant ${rate(arrival)} (70% of the baseline max), ${CONNECTIONS} connections, median of ${used.length} alternated passes${used === rounds ? "" : ` with steal ≤ ${stealLimitMs} ms`} (${label})`,
        figure: `p50 ${ms(la.p50)}, p99 ${ms(la.p99)}, ${rate(la.rps)}`,
        baseline: `p50 ${ms(lb.p50)}, p99 ${ms(lb.p99)}, ${rate(lb.rps)}`,
        ratio: p99Ratio,
        goal: "p99 ≤ 1.5× baseline",
        // Met only on enough rounds the host left alone: a median of stolen passes measures the host.
        met: smoke ? null : p99Ratio !== null && p99Ratio <= 1.5 && errors === 0 && used !== rounds,
        details: { ...details, arrivalRate: arrival, api: la, baseline: lb, passes: { api: latApi, baseline: latBase }, rounds, stealLimitMs },
        ...(errNote || stealNote || (!smoke && (p99Ratio ?? 99) > 1.5)
          ? { note: `${(p99Ratio ?? 99) > 1.5 ? `At the same arrival rate the API needs more CPU per request (see the throughput row), so on a shared core its queueing delay grows first. ${cause}` : ""}${stealNote}${errNote}`.trim() }
          : {}),
      },
      {
        id: "B1",
        workload: `GET /missions/:id, node CPU a request of the server process in the latency passes at ${rate(arrival)} (${label})`,
        figure: `${cpuApi} µs (PostgreSQL ${medianOf(latApi.map((x) => x.cpuPostgresUs))} µs)`,
        baseline: `${cpuBase} µs (PostgreSQL ${medianOf(latBase.map((x) => x.cpuPostgresUs))} µs), bare Hono + pg`,
        ratio: cpuRatio,
        goal: "node CPU a request ≤ 2× baseline",
        // CPU time moves less with the host than latency does, but a stolen pass slows both sides' caches
        // alike: the median is over the same passes as the p99 row's.
        met: smoke ? null : cpuRatio !== null && cpuRatio <= 2 && errors === 0,
        details: { ...details, arrivalRate: arrival, api: latApi.map((x) => x.cpuServerUs), baseline: latBase.map((x) => x.cpuServerUs) },
        ...(errNote || (!smoke && (cpuRatio ?? 99) > 2) ? { note: `${(cpuRatio ?? 99) > 2 ? cause : ""}${errNote}`.trim() } : {}),
      },
    ];
  } finally {
    await Promise.allSettled([api?.stop(), base?.stop()]);
  }
}

export const workload: Workload = { id: "B1", title: "GET /missions/:id vs a bare Hono + pg endpoint", run };
