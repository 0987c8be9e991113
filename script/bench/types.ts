// The shape every benchmark workload shares. A workload measures its figure AND its baseline in the
// same run, on the same machine, and reports the ratio; the goal is checked against that ratio (and,
// where the issue sets one, an absolute bound). See script/bench/README in docs/bench/README.md.

export interface BenchContext {
  /** `--smoke`: every workload at tiny sizes (CI); figures are not meaningful, only that it runs. */
  smoke: boolean;
  /** `--size`: dataset size for the dataset-backed workloads (B1–B4), e.g. 100_000 or 1_000_000. */
  missions: number;
  /** Scratch folder for this run (gitignored: .data/bench/<run id>). */
  scratchDir: string;
  /** A PostgreSQL server URL (embedded unless DATABASE_URL); workloads create their own databases. */
  postgresUrl(): Promise<string>;
  /** Cache shared by the workloads of one run (e.g. the loaded dataset, so B1–B4 load it once). */
  shared: Map<string, unknown>;
  /** Progress line on stderr. */
  log(message: string): void;
}

/** One latency/throughput sample summary (milliseconds, requests per second). */
export interface Stats {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p90?: number;
  p99: number;
  max?: number;
  /** Failed requests by kind (an error code, "timeout" or "HTTP <status>"), where the load recorded them. */
  errorKinds?: Record<string, number>;
}

export interface BenchRow {
  /** "B1", "B2", ... "G1". */
  id: string;
  /** Human label, e.g. "GET /missions/nearby 5 km (1M missions)". */
  workload: string;
  /** Our figure, human readable, e.g. "p99 12.4 ms, 3,120 req/s". */
  figure: string;
  /** The in-run baseline, same units. */
  baseline: string;
  /** figure / baseline for the quantity the goal is about (e.g. p99 ratio, or throughput ratio). */
  ratio: number | null;
  /** The goal in words, copied from the issue, e.g. "p99 ≤ 1.3× baseline; 5 km p99 ≤ 15 ms". */
  goal: string;
  /** Whether the goal was met in this run (null in smoke runs or when not applicable). */
  met: boolean | null;
  /** Raw numbers for the JSON file (Stats of both sides, sizes, settings). */
  details?: Record<string, unknown>;
  /** Why a miss happens and what it would take, when `met` is false. */
  note?: string;
}

export interface Workload {
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
