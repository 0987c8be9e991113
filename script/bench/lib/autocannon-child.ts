// Runs one autocannon pass in its own (pinned) process; reads its options as JSON from argv[2] and
// prints the result as JSON on stdout. Paths are taken round-robin from `paths` (random order made
// by the caller), so "random ids" is one list generated once per run.
import fs from "node:fs";
import autocannon from "autocannon";
import type { LoadOptions as ChildOptions } from "./load.ts";

// argv[2] is the JSON itself or `@<file>` holding it (long path lists).
const arg = process.argv[2]!;
const options = JSON.parse(arg.startsWith("@") ? fs.readFileSync(arg.slice(1), "utf8") : arg) as ChildOptions;
let i = 0;
const instance = autocannon(
  {
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    duration: options.durationSeconds,
    amount: options.amount,
    overallRate: options.overallRate,
    headers: options.headers,
    requests: [
      {
        setupRequest: (req) => ({ ...req, path: options.paths[i++ % options.paths.length]! }),
      },
    ],
  },
  (err, result) => {
    if (err) {
      process.stderr.write(String(err));
      process.exit(1);
    }
    process.stdout.write(
      JSON.stringify({
        requests: result.requests.total,
        errors: result.errors + result.timeouts + result.non2xx,
        non2xx: result.non2xx,
        rps: result.requests.average,
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
        durationSeconds: result.duration,
      }),
    );
  },
);
process.on("SIGINT", () => instance.stop());
