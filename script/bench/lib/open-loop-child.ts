// One constant-arrival-rate pass in its own (pinned) process (script/lib/open-loop.ts: request i due at
// start + i / rate, whatever happened to the earlier ones), each latency measured from its due time,
// so a stalled server or a late client is charged in full (no coordinated omission). Reads its
// options as JSON from argv[2] (`@<file>`), prints Stats.
//
// Why not autocannon's `overallRate` (9.0): its rate limit is a per-connection budget reset once a
// second, so all connections fire together at each second's start (8 req/s = a burst of 8 every
// second), and its coordinated-omission correction records each response of X ms with an expected
// interval of ceil(1 / rate) = 1 ms, i.e. X samples per slow response. Both inflate percentiles by
// the burst's queueing, not by the server. autocannon stays for the max-throughput passes (no rate).
import fs from "node:fs";
import http from "node:http";
import { runOpenLoop } from "../../lib/open-loop.ts";
import type { LoadOptions } from "./load.ts";
import { summarize } from "./stats.ts";

const arg = process.argv[2]!;
const options = JSON.parse(arg.startsWith("@") ? fs.readFileSync(arg.slice(1), "utf8") : arg) as LoadOptions;
const target = new URL(options.url);
const TIMEOUT_MS = 10_000;
// Up to `connections` requests in flight; a request due while all are busy waits for a socket, and
// that wait is part of its latency (it is measured from its due time).
// `timeout` makes the agent honour the server's `Keep-Alive: timeout=N` hint: Node closes an idle
// socket 1 s before the server would (keepSocketAlive in node:_http_agent; with no agent timeout the
// hint is ignored and idle sockets are kept until the server closes them). Without it a request sent
// on a socket the server is closing at that moment fails with ECONNRESET, the keep-alive race every
// careful client (undici, wrk's reconnects aside) avoids; it is the client's fault, not the server's.
const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, timeout: TIMEOUT_MS });

const latencies: number[] = [];
let errors = 0;
let non2xx = 0;
/** Errors by kind (the error's code, or "timeout", or "HTTP <status>"), printed with the stats. */
let errorKinds: Record<string, number> = {};
const failed = (kind: string) => {
  errors++;
  errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
};
const kindOf = (err: Error & { code?: string }) => err.code ?? err.message;

function send(path: string, due: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path, method: "GET", agent, headers: options.headers, timeout: TIMEOUT_MS },
      (res) => {
        res.resume();
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) latencies.push(performance.now() - due);
          else (non2xx++, failed(`HTTP ${status}`));
          resolve();
        });
        res.on("error", (err) => (failed(kindOf(err)), resolve()));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (err) => (failed(kindOf(err)), resolve()));
    req.end();
  });
}

// The connections are opened before the schedule starts, as wrk2 connects all of its connections first:
// otherwise the first requests each open a socket, 64 connects meet the server at once and that burst,
// the same for every server, weighs on the percentiles of a 15-s pass (docs/decisions.md "B1: where
// the p99 comes from"). Not measured.
await Promise.all(Array.from({ length: options.connections }, (_, i) => send(options.paths[i % options.paths.length]!, performance.now())));
latencies.length = 0;
errors = 0;
non2xx = 0;
errorKinds = {};

const run = await runOpenLoop({
  rate: options.overallRate!,
  seconds: options.durationSeconds ?? 10,
  fire: (i, due) => send(options.paths[i % options.paths.length]!, due),
});
agent.destroy();
const s = summarize(latencies, run.allSeconds * 1000, errors);
process.stdout.write(JSON.stringify({ ...s, non2xx, ...(errors ? { errorKinds } : {}), durationSeconds: run.allSeconds }));
