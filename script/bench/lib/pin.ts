// CPU pinning: on a 2-core machine the load generator runs on CPU 0 and the servers under test
// (API, baseline server, PostgreSQL children inherit nothing: pin them explicitly) on CPU 1, so the
// generator does not steal the server's core. Without taskset, commands run unpinned.
import { execFileSync } from "node:child_process";
import os from "node:os";

let hasTaskset: boolean | undefined;
export function tasksetAvailable(): boolean {
  if (hasTaskset === undefined) {
    try {
      execFileSync("taskset", ["-c", "0", "true"], { stdio: "ignore" });
      hasTaskset = os.cpus().length >= 2;
    } catch {
      hasTaskset = false;
    }
  }
  return hasTaskset;
}

export const LOAD_CPU = 0;
export const SERVER_CPU = 1;

/** [cmd, args] wrapped in `taskset -c <cpu>` when available. */
export function pinned(cpu: number, cmd: string, args: string[]): [string, string[]] {
  return tasksetAvailable() ? ["taskset", ["-c", String(cpu), cmd, ...args]] : [cmd, args];
}

/** Re-pins a running process (e.g. an embedded PostgreSQL and its children) to `cpu`. */
export function pinPid(pid: number, cpu: number): void {
  if (!tasksetAvailable()) return;
  try {
    execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" });
  } catch {
    // best effort
  }
}
