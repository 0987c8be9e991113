// Prometheus metrics, one registry per server instance (several can run in one test process).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

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
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests by method, route and status",
      labelNames: ["method", "route", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "HTTP request duration in seconds",
      labelNames: ["method", "route"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
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
