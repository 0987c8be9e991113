// Prometheus metrics, one registry per server instance (several can run in one test process).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
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
