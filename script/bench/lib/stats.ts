// Percentiles and formatting for benchmark figures (exact nearest-rank percentiles over all samples).

import type { Stats } from "../types.ts";

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(latenciesMs: readonly number[], elapsedMs: number, errors = 0): Stats {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    errors,
    rps: elapsedMs > 0 ? (sorted.length * 1000) / elapsedMs : 0,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (value: number): string => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms` : "n/a");
export const rate = (value: number, unit = "req/s"): string => `${Math.round(value).toLocaleString("en-US")} ${unit}`;
export const ratio = (a: number, b: number): number | null => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? Math.round((a / b) * 100) / 100 : null);

/** "3 (ECONNRESET 2, HTTP 500 1)": the errors of some loads, with their kinds where recorded. */
export function errorSummary(loads: readonly Stats[]): string {
  const kinds = new Map<string, number>();
  for (const l of loads) for (const [k, n] of Object.entries(l.errorKinds ?? {})) kinds.set(k, (kinds.get(k) ?? 0) + n);
  const total = loads.reduce((a, l) => a + l.errors, 0);
  return kinds.size ? `${total} (${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")})` : String(total);
}
