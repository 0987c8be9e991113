// HTTP load in a separate process pinned to the load CPU:
//   with `overallRate`: a constant arrival rate (open loop, latency from each request's due time) for
//   latency (open-loop-child.ts; autocannon's own rate limit fires in once-a-second bursts);
//   without: autocannon at max throughput.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Stats } from "../types.ts";
import { LOAD_CPU, pinned } from "./pin.ts";

export interface LoadOptions {
  url: string;
  paths: string[];
  connections: number;
  durationSeconds?: number;
  amount?: number;
  /** Constant arrival rate (requests per second, evenly spaced, open loop); omit for max throughput. */
  overallRate?: number;
  headers?: Record<string, string>;
}

export async function runLoad(options: LoadOptions): Promise<Stats & { non2xx: number }> {
  const child = path.join(import.meta.dirname, options.overallRate ? "open-loop-child.ts" : "autocannon-child.ts");
  // Options go through a temp file: a long `paths` list exceeds the kernel's 128 KiB per-argument limit (E2BIG).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-load-"));
  const file = path.join(dir, "options.json");
  fs.writeFileSync(file, JSON.stringify(options));
  const [cmd, args] = pinned(LOAD_CPU, process.execPath, ["--import", "tsx", child, `@${file}`]);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err, out, errText) => {
      if (err) reject(new Error(`autocannon failed: ${errText || err.message}`));
      else resolve(out);
    });
  }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
  return JSON.parse(stdout) as Stats & { non2xx: number };
}
