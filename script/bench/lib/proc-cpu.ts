// CPU time of processes from /proc (Linux), to report CPU per request of a server and of
// PostgreSQL next to wall-clock figures: CPU time stays meaningful when other processes share the
// machine, wall-clock latency does not.
import fs from "node:fs";
import pg from "pg";

const TICK_US = 10_000; // USER_HZ = 100 on Linux

/** utime + stime of a process (all its threads) in microseconds; 0 when unreadable. */
export function processCpuMicros(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_US; // fields 14 and 15 (utime, stime)
  } catch {
    return 0;
  }
}

/** Busy CPU time of the whole machine (all cores: /proc/stat minus idle and iowait) in microseconds. */
export function machineCpuMicros(): number {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = machineTicks();
  return (user + nice + system + irq + softirq + steal) * TICK_US;
}

/** The machine's "cpu" line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal, ... ticks ([] when unreadable). */
function machineTicks(): number[] {
  try {
    return fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return [];
  }
}

/**
 * Steal time of the whole machine in microseconds (/proc/stat's 8th field): time a virtual CPU was
 * ready to run and the hypervisor ran something else. It shows when a figure was taken while the
 * host took the cores away, which no process here can see in its own CPU time.
 */
export function stealMicros(): number {
  return (machineTicks()[7] ?? 0) * TICK_US;
}

function ppidOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return 0;
  }
}

/** The postmaster of the server behind `databaseUrl` (0 when it is not on this machine). */
export async function postmasterPid(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return ppidOf(rows[0]!.pid);
  } finally {
    await client.end();
  }
}

/** utime + stime + cutime + cstime: the process and its children that exited and were waited for. */
function processTreeCpuMicros(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_US;
  } catch {
    return 0;
  }
}

/** Read/write syscalls and bytes of a process (/proc/<pid>/io), to compare servers per request. */
export function processIo(pid: number): { syscr: number; syscw: number; rchar: number; wchar: number } {
  const out = { syscr: 0, syscw: 0, rchar: 0, wchar: 0 };
  try {
    for (const line of fs.readFileSync(`/proc/${pid}/io`, "utf8").split("\n")) {
      const [k, v] = line.split(":");
      if (k && k in out) out[k as keyof typeof out] = Number(v);
    }
  } catch {
    // not readable
  }
  return out;
}

/**
 * CPU of PostgreSQL in microseconds: the postmaster with its exited children (backends closed by an
 * idle pool are waited for by the postmaster, so their time lands in its cutime) and its live ones.
 */
export function postgresCpuMicros(postmaster: number): number {
  if (!postmaster) return 0;
  let total = processTreeCpuMicros(postmaster);
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid > 0 && ppidOf(pid) === postmaster) total += processCpuMicros(pid);
  }
  return total;
}

/** Measures CPU used by `serverPid` and by PostgreSQL during `work`, per request, and the machine's steal time over it. */
export async function cpuPerRequest<T extends { requests: number }>(
  serverPid: number,
  postmaster: number,
  work: () => Promise<T>,
): Promise<T & { cpuServerUs: number; cpuPostgresUs: number; stealMs: number }> {
  const st0 = stealMicros();
  const s0 = processCpuMicros(serverPid);
  const p0 = postgresCpuMicros(postmaster);
  const result = await work();
  const n = Math.max(1, result.requests);
  return {
    ...result,
    cpuServerUs: Math.round((processCpuMicros(serverPid) - s0) / n),
    cpuPostgresUs: Math.round((postgresCpuMicros(postmaster) - p0) / n),
    stealMs: Math.round((stealMicros() - st0) / 1000),
  };
}
