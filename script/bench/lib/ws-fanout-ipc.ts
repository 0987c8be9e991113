// Request/response over Node's IPC channel between the B8 workload and its child processes (hub
// server, baseline server, clients), each started pinned to its CPU through taskset.
import { spawn, type ChildProcess } from "node:child_process";
import { repoRoot } from "../../lib/paths.ts";
import { pinned } from "./pin.ts";

interface Reply {
  id: number;
  ok: boolean;
  body?: unknown;
  error?: string;
}

export interface B8Child {
  name: string;
  pid: number;
  request<T = unknown>(type: string, body?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the child to exit, kills it after 5 s. Safe to call twice. */
  stop(): Promise<void>;
}

export function startChild(name: string, file: string, cpu: number, nodeArgs: string[] = []): B8Child {
  const [cmd, args] = pinned(cpu, process.execPath, [...nodeArgs, "--import", "tsx", file]);
  const proc: ChildProcess = spawn(cmd, args, { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 1;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    proc.once("exit", (code, signal) => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`${name} exited (${code ?? signal})`));
      pending.clear();
      resolve();
    }),
  );
  proc.on("message", (m: Reply) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.body);
    else p.reject(new Error(`${name}: ${m.error}`));
  });
  return {
    name,
    pid: proc.pid!,
    request<T>(type: string, body?: unknown, timeoutMs = 120_000): Promise<T> {
      if (exited) return Promise.reject(new Error(`${name} is not running`));
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${name}: ${type} timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, {
          resolve: (v) => (clearTimeout(timer), resolve(v as T)),
          reject: (e) => (clearTimeout(timer), reject(e)),
        });
        proc.send({ id, type, body });
      });
    },
    async stop() {
      if (exited) return;
      try {
        proc.send({ id: 0, type: "exit" });
      } catch {
        // channel already closed
      }
      const killer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await exit;
      clearTimeout(killer);
    },
  };
}

/** Child side: answers requests with `handlers[type](body)`; "exit" (or a lost parent) ends the process. */
export function serveRequests(handlers: Record<string, (body: any) => unknown>, onExit: () => Promise<void> = async () => {}): void {
  const quit = () => void onExit().finally(() => process.exit(0));
  process.on("disconnect", quit);
  process.on("message", async (m: { id: number; type: string; body: unknown }) => {
    if (m.type === "exit") return quit();
    try {
      const handler = handlers[m.type];
      if (!handler) throw new Error(`unknown request ${m.type}`);
      process.send!({ id: m.id, ok: true, body: await handler(m.body) });
    } catch (err) {
      process.send!({ id: m.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
}

/** High-resolution wall clock (ms), comparable across processes of one machine. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** Runs `fn(i)` for i = 0..count-1 at a constant rate starting at wall time `startAt` (open loop). */
export async function atRate(count: number, perSecond: number, startAt: number, fn: (i: number) => void): Promise<void> {
  const interval = 1000 / perSecond;
  for (let i = 0; i < count; i++) {
    const due = startAt + i * interval;
    const wait = due - wallNow();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait - 0.5));
    while (wallNow() < due) {
      // spin the last half millisecond: setTimeout alone is ±1 ms
    }
    fn(i);
  }
}
