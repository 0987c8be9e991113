// Prometheus metrics, one registry per server instance (several can run in one test process).
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The event-loop lag histogram samples on a libuv timer: prom-client's default 10 ms woke an idle
 * API 100 times a second (~10 ms CPU/s on the core it shares with PostgreSQL, half of its idle
 * work). At 100 ms a stall still shows (the timer fires late by it) at a tenth of the wake-ups.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return {
    registry,
    http: httpMetrics(registry),
    relayerTxs: new Counter({
      name: "relayer_transactions_total",
      help: "Transactions sent by the relayer, by function and result",
      labelNames: ["fn", "result"] as const,
      registers: [registry],
    }),
    relayerReplacements: new Counter({
      name: "relayer_replacements_total",
      help: "Stuck relayer transactions re-sent with the same nonce and higher fees",
      registers: [registry],
    }),
    relayerBaseFee: new Gauge({
      name: "relayer_base_fee_wei",
      help: "The latest block's base fee per gas the relayer read, in wei",
      registers: [registry],
    }),
    relayerBalance: new Gauge({
      name: "relayer_balance_wei",
      help: "ETH balance of each relayer key, in wei",
      labelNames: ["address"] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "rate_limited_total",
      help: "Requests refused with 429",
      registers: [registry],
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/** http_request_duration_seconds' upper bounds (seconds). */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** One method and route: requests by status, and the duration histogram (per-bucket counts, not cumulative). */
interface RouteCell {
  readonly method: string;
  readonly route: string;
  readonly statuses: Map<number, StatusCount>;
  /** buckets[i]: durations in (bound[i-1], bound[i]]; the last one above every bound (+Inf). */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

interface StatusCount {
  readonly labels: { method: string; route: string; status: string };
  value: number;
}

type PromValue = { value: number; labels: Record<string, string | number>; metricName?: string };

/**
 * The HTTP request counter (http_requests_total{method,route,status}) and duration histogram
 * (http_request_duration_seconds{method,route}), recorded once per request by the request path with
 * two Map lookups and a few additions: prom-client's Counter.inc and Histogram.observe validated and
 * hashed a label object each (a string key built per call). The exposition is prom-client's own (the
 * registry formats what get() returns, in the same order as prom-client's Counter and Histogram;
 * test/unit/metrics.test.ts compares both texts for the same requests).
 */
export function httpMetrics(registry: Registry) {
  const byMethod = new Map<string, Map<string, RouteCell>>();
  const cells: RouteCell[] = [];
  // The counter's series in the order first seen (prom-client's order), read by the exposition.
  const counts: StatusCount[] = [];
  const bounds = HTTP_DURATION_BUCKETS;
  const cellOf = (method: string, route: string): RouteCell => {
    let routes = byMethod.get(method);
    if (!routes) byMethod.set(method, (routes = new Map()));
    let cell = routes.get(route);
    if (!cell) {
      cell = { method, route, statuses: new Map(), buckets: new Float64Array(bounds.length + 1), sum: 0, count: 0 };
      routes.set(route, cell);
      cells.push(cell);
    }
    return cell;
  };
  const requests = {
    name: "http_requests_total",
    help: "HTTP requests by method, route and status",
    type: "counter",
    aggregator: "sum",
    get: async () => ({
      name: requests.name,
      help: requests.help,
      type: requests.type,
      aggregator: requests.aggregator,
      values: counts.map((c): PromValue => ({ value: c.value, labels: { ...c.labels } })),
    }),
  };
  const duration = {
    name: "http_request_duration_seconds",
    help: "HTTP request duration in seconds",
    type: "histogram",
    aggregator: "sum",
    get: async () => ({
      name: duration.name,
      help: duration.help,
      type: duration.type,
      aggregator: duration.aggregator,
      values: cells.flatMap((c): PromValue[] => {
        const labels = { method: c.method, route: c.route };
        let acc = 0;
        const out: PromValue[] = bounds.map((le, i) => ({ value: (acc += c.buckets[i]!), labels: { le, ...labels }, metricName: `${duration.name}_bucket` }));
        out.push(
          { value: c.count, labels: { le: "+Inf", ...labels }, metricName: `${duration.name}_bucket` },
          { value: c.sum, labels: { ...labels }, metricName: `${duration.name}_sum` },
          { value: c.count, labels: { ...labels }, metricName: `${duration.name}_count` },
        );
        return out;
      }),
    }),
  };
  registry.registerMetric(requests as never);
  registry.registerMetric(duration as never);
  return {
    /** One request: its method, route label, status and duration in seconds. */
    record(method: string, route: string, status: number, seconds: number): void {
      const cell = cellOf(method, route);
      const n = cell.statuses.get(status);
      if (n) n.value++;
      else {
        const first: StatusCount = { labels: { method, route, status: String(status) }, value: 1 };
        cell.statuses.set(status, first);
        counts.push(first);
      }
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      cell.buckets[i]!++;
      cell.sum += seconds;
      cell.count++;
    },
  };
}
export type HttpMetrics = ReturnType<typeof httpMetrics>;
