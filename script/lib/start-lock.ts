// npm start's lock (.data/start.json): the supervisor's pid and its children's, so a second start is
// refused while one runs and a start after a killed one stops what that one left. A pid alone is not
// a process: after a reboot or a container restart (.data on a volume) the numbers are handed out
// again, to unrelated processes or to this very start's own parents. Each pid is kept with its start
// time, and only a process with the same pid AND the same start time counts as the one recorded.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { isAlive } from "./process.ts";
import { waitFor } from "./ports.ts";

export interface LockedProcess {
  name: string;
  pid: number;
  /** processStarted(pid) when recorded; null where the platform cannot tell. */
  started: string | null;
}
export interface Lock {
  pid: number;
  started: string | null;
  children: LockedProcess[];
}

/**
 * When `pid` started, as a string that differs for another process with the same pid: Linux's
 * start time in clock ticks since boot plus the boot's id (/proc), elsewhere `ps -o lstart=`; null
 * when neither can tell (or the process is gone).
 */
export function processStarted(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const startTicks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    return `${boot}:${startTicks}`;
  } catch {
    // no /proc (macOS): ps, where it exists
  }
  try {
    return execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() || null;
  } catch {
    return null;
  }
}

/** Whether the recorded process still runs: same pid and, where it was recorded, the same start. */
function stillRuns(p: { pid: number; started?: string | null }): boolean {
  if (!isAlive(p.pid)) return false;
  return p.started == null || processStarted(p.pid) === p.started;
}

/**
 * Takes the lock: refuses while the recorded supervisor runs, stops the children a killed one left
 * (SIGINT, then SIGKILL after 30 s), and records this process. Returns the function that records the
 * children this start adds. A lock file it cannot read is replaced.
 */
export async function takeLock(lockFile: string, step: (line: string) => void): Promise<(name: string, pid: number | undefined) => void> {
  let lock: Partial<Lock> | undefined;
  try {
    lock = JSON.parse(fs.readFileSync(lockFile, "utf8")) as Partial<Lock>;
  } catch {
    lock = undefined;
  }
  if (lock && typeof lock.pid === "number") {
    if (lock.pid !== process.pid && stillRuns({ pid: lock.pid, started: lock.started })) {
      throw new Error(`npm start is already running (pid ${lock.pid}); stop it first (Ctrl-C in its terminal)`);
    }
    for (const child of (lock.children ?? []).filter((c) => c.pid !== process.pid && stillRuns(c))) {
      step(`stopping the ${child.name} (pid ${child.pid}) left by an npm start that was killed`);
      process.kill(child.pid, "SIGINT");
      await waitFor(`the old ${child.name} to stop`, async () => !isAlive(child.pid), { timeoutMs: 30_000 }).catch(() => process.kill(child.pid, "SIGKILL"));
    }
  }
  const self = { pid: process.pid, started: processStarted(process.pid) };
  const children: LockedProcess[] = [];
  const write = () => fs.writeFileSync(lockFile, `${JSON.stringify({ ...self, children } satisfies Lock, null, 2)}\n`);
  write();
  process.on("exit", () => {
    try {
      if ((JSON.parse(fs.readFileSync(lockFile, "utf8")) as Lock).pid === process.pid) fs.rmSync(lockFile, { force: true });
    } catch {
      // gone already
    }
  });
  return (name, pid) => {
    if (pid === undefined) return;
    children.push({ name, pid, started: processStarted(pid) });
    write();
  };
}
