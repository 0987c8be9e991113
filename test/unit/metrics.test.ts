// The HTTP metrics recorded without prom-client's per-call label hashing (api/lib/metrics.ts
// httpMetrics) must expose exactly what prom-client's Counter and Histogram exposed for the same requests.
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { HTTP_DURATION_BUCKETS, httpMetrics } from "../../api/lib/metrics.ts";

const REQUESTS: [method: string, route: string, status: number, seconds: number][] = [
  ["GET", "/missions/:id", 200, 0.0012],
  ["GET", "/feed", 200, 0.04],
  ["GET", "/missions/:id", 404, 0.005], // on a bound: counted in le="0.005"
  ["POST", "/missions", 201, 0.3],
  ["GET", "/missions/:id", 200, 12], // above every bound: +Inf only
  ["GET", "unmatched", 404, 0.0001],
  ["GET", "/missions/:id", 200, 0.01],
  ["POST", "/missions", 429, 0],
  ["GET", "/feed", 304, 2.5],
];

describe("httpMetrics", () => {
  it("exposes the same text as prom-client's Counter and Histogram", async () => {
    const ref = new Registry();
    const counter = new Counter({ name: "http_requests_total", help: "HTTP requests by method, route and status", labelNames: ["method", "route", "status"], registers: [ref] });
    const histogram = new Histogram({ name: "http_request_duration_seconds", help: "HTTP request duration in seconds", labelNames: ["method", "route"], buckets: [...HTTP_DURATION_BUCKETS], registers: [ref] });
    const ours = new Registry();
    const http = httpMetrics(ours);
    for (const [method, route, status, seconds] of REQUESTS) {
      counter.inc({ method, route, status: String(status) });
      histogram.observe({ method, route }, seconds);
      http.record(method, route, status, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await ref.metrics());
    expect(text).toContain('http_requests_total{method="GET",route="/missions/:id",status="200"} 3');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/missions/:id"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/missions/:id"} 4');
    // A scrape changes nothing: the next one after more requests counts on.
    http.record("GET", "/feed", 200, 0.02);
    counter.inc({ method: "GET", route: "/feed", status: "200" });
    histogram.observe({ method: "GET", route: "/feed" }, 0.02);
    expect(await ours.metrics()).toBe(await ref.metrics());
  });
});
