// The constant-arrival-rate schedule of the bench and the reliability load (script/lib/open-loop.ts)
// the bench's percentiles (script/bench/lib/stats.ts), and the open-loop child's failures by kind.
import { describe, expect, it } from "vitest";
import { openLoopSchedule, runOpenLoop } from "../../script/lib/open-loop.ts";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { errorSummary, percentile, summarize } from "../../script/bench/lib/stats.ts";
import { runLoad } from "../../script/bench/lib/load.ts";

describe("openLoopSchedule", () => {
  it("spaces rate × seconds requests evenly, never in bursts", () => {
    const due = openLoopSchedule(8, 10);
    expect(due).toHaveLength(80);
    expect(due[0]).toBe(0);
    expect(due[1]).toBe(125);
    expect(due.at(-1)).toBe(79 * 125);
    const gaps = due.slice(1).map((t, i) => t - due[i]!);
    expect(new Set(gaps)).toEqual(new Set([125]));
  });

  it("handles rates that do not divide a second", () => {
    const due = openLoopSchedule(15, 2);
    expect(due).toHaveLength(30);
    expect(due[3]).toBeCloseTo(200, 9);
    expect(Math.max(...due)).toBeLessThan(2000);
  });

  it("refuses a zero or negative rate or duration", () => {
    expect(() => openLoopSchedule(0, 10)).toThrow(/positive/);
    expect(() => openLoopSchedule(8, -1)).toThrow(/positive/);
  });
});

describe("runOpenLoop", () => {
  it("starts every request on time even when earlier ones have not finished", async () => {
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const run = await runOpenLoop({
      rate: 50, seconds: 0.4,
      fire: async (i, due) => {
        started.push(i);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        expect(performance.now()).toBeGreaterThanOrEqual(due);
        await new Promise((r) => setTimeout(r, 100)); // each "request" outlasts five intervals
        inFlight--;
      },
    });
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(maxInFlight).toBeGreaterThanOrEqual(4); // a closed loop would keep one in flight
    expect(run.lags).toHaveLength(20);
    expect(run.allSeconds).toBeGreaterThanOrEqual(run.sentSeconds);
  });
});

describe("percentiles", () => {
  it("are nearest-rank over every sample, one sample per request", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    const s = summarize([80, 10, 10, 10], 1000, 1);
    expect(s).toMatchObject({ requests: 4, errors: 1, p50: 10, p99: 80, max: 80, rps: 4 });
  });
});

describe("failures by kind", () => {
  it("errorSummary adds the kinds of several loads", () => {
    expect(errorSummary([{ requests: 9, errors: 0, rps: 1, p50: 1, p99: 1 }])).toBe("0");
    expect(
      errorSummary([
        { requests: 9, errors: 2, rps: 1, p50: 1, p99: 1, errorKinds: { ECONNRESET: 1, "HTTP 500": 1 } },
        { requests: 9, errors: 1, rps: 1, p50: 1, p99: 1, errorKinds: { ECONNRESET: 1 } },
      ]),
    ).toBe("3 (ECONNRESET 2, HTTP 500 1)");
  });

  it("the open-loop child counts a 500 and a dropped connection by kind, and only failures", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/fail") res.writeHead(500).end();
      else if (req.url === "/reset") req.socket.destroy();
      else res.end("ok");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const s = await runLoad({ url, paths: ["/ok", "/fail", "/reset"], connections: 3, overallRate: 30, durationSeconds: 1 });
      expect(s.requests).toBe(10);
      expect(s.errors).toBe(20);
      expect(s.non2xx).toBe(10);
      expect(s.errorKinds).toEqual({ "HTTP 500": 10, ECONNRESET: 10 });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }, 30_000);
});
