import { spawn, type SpawnOptions } from "node:child_process";

/** Does a process with this pid exist (signal 0 checks without sending anything)? */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Child processes of the local stack. Each runs in its own process group, so a Ctrl-C in the
 * terminal reaches only the supervisor, which then stops them in order (API, indexer, anvil,
 * Postgres). Whatever is still alive when this process exits is sent SIGINT, so nothing is orphaned.
 */
export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  /** Settles with the exit code (or signal) when the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Rejects if the process ends before `stop()` was called (use it to abort a readiness wait). */
  readonly crashed: Promise<never>;
  /** The last lines the process printed, for error messages. */
  tail(): string;
  /** Sends `signal` (SIGINT by default), then SIGKILL after `timeoutMs`, and waits for the exit. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<void>;
}

export interface ManagedSpawnOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  /** Receives every line of stdout and stderr. */
  onLine?: (line: string) => void;
  tailLines?: number;
}

const live = new Set<ManagedProcess & { kill(signal: NodeJS.Signals): void }>();
let exitHookInstalled = false;

/** Signals whose default action ends Node without its "exit" event (and so without the hook above). */
const ENDING_SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of live) child.kill("SIGINT");
  });
  // The children run in process groups of their own (detached), so a signal that kills this process
  // does not reach them: a bench or test run stopped with `kill` or Ctrl-C left its PostgreSQL and
  // anvil running. Where the program has no handler of its own for the signal (the supervisor has),
  // end as the signal would (128 + its number), through "exit", which stops them.
  for (const [signal, number] of Object.entries(ENDING_SIGNALS)) {
    process.on(signal, () => {
      if (process.listenerCount(signal) === 1) process.exit(128 + number);
    });
  }
}

export function spawnManaged(name: string, command: string, args: string[], options: ManagedSpawnOptions = {}): ManagedProcess {
  installExitHook();
  const spawnOptions: SpawnOptions = {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  };
  if (options.uid !== undefined) spawnOptions.uid = options.uid;
  if (options.gid !== undefined) spawnOptions.gid = options.gid;
  const child = spawn(command, args, spawnOptions);
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  const pid = child.pid;

  const lines: string[] = [];
  const maxLines = options.tailLines ?? 40;
  const onData = (prefix: string) => {
    let partial = "";
    return (chunk: Buffer) => {
      const text = partial + chunk.toString("utf8");
      const parts = text.split(/\r?\n/);
      partial = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(prefix + line);
        if (lines.length > maxLines) lines.shift();
        options.onLine?.(line);
      }
    };
  };
  child.stdout?.on("data", onData(""));
  child.stderr?.on("data", onData(""));

  let stopping = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => {
      live.delete(managed);
      resolve({ code, signal });
    });
    child.on("error", () => {
      live.delete(managed);
      resolve({ code: null, signal: null });
    });
  });
  const crashed = new Promise<never>((_, reject) => {
    void exited.then(({ code, signal }) => {
      if (!stopping) reject(new Error(`${name} exited unexpectedly (${signal ?? `code ${code}`}):\n${lines.join("\n")}`));
    });
  });
  crashed.catch(() => undefined);

  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  };

  const managed = {
    name,
    pid,
    exited,
    crashed,
    kill,
    tail: () => lines.join("\n"),
    async stop(signal: NodeJS.Signals = "SIGINT", timeoutMs = 15_000) {
      if (!live.has(managed)) return void (await exited);
      stopping = true;
      kill(signal);
      const timer = setTimeout(() => kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
  live.add(managed);
  return managed;
}
