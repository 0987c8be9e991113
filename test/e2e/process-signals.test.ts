// script/lib/process.ts: the children of a program (PostgreSQL, anvil, Ponder, the API) run in process
// groups of their own, so a signal that kills the program does not reach them. A program killed with
// SIGTERM, SIGINT or SIGHUP and no handler of its own must still stop them; a program with its own
// handler (the supervisor) keeps it. Real processes: a node program that starts `sleep` managed.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../script/lib/ports.ts";
import { isAlive } from "../../script/lib/process.ts";

const started: number[] = [];
afterEach(() => {
  // A failed check must not leave its `sleep` behind.
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
});

const processTs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../script/lib/process.ts");

/** Starts a program that runs `sleep 300` managed and prints its pid; `ownHandler` adds a handler for the signal. */
async function program(signal: NodeJS.Signals, ownHandler: boolean) {
  const code = [
    `import { spawnManaged } from ${JSON.stringify(processTs)};`,
    `const s = spawnManaged("sleep", "sleep", ["300"]);`,
    ownHandler ? `process.on(${JSON.stringify(signal)}, () => { console.log("handled"); setTimeout(() => { s.stop().then(() => process.exit(7)); }, 200); });` : "",
    `console.log("pid " + s.pid);`,
    `setInterval(() => {}, 1000);`,
  ].join("\n");
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (c, s) => resolve({ code: c, signal: s })));
  await waitFor("the program to print its child's pid", async () => /pid (\d+)/.test(out), { timeoutMs: 20_000, intervalMs: 50 });
  const sleepPid = Number(/pid (\d+)/.exec(out)![1]);
  started.push(sleepPid);
  return { child, sleepPid, exited, out: () => out };
}

const gone = (pid: number) =>
  waitFor(`pid ${pid} to end`, async () => !isAlive(pid), { timeoutMs: 5_000, intervalMs: 50 }).then(() => true, () => false);

describe("managed children when their program is killed by a signal", () => {
  for (const [signal, number] of [["SIGTERM", 15], ["SIGINT", 2], ["SIGHUP", 1]] as const) {
    it(`${signal} without a handler of the program's: it ends with ${128 + number} and its child is stopped`, async () => {
      const p = await program(signal, false);
      expect(isAlive(p.sleepPid)).toBe(true);
      p.child.kill(signal);
      expect(await p.exited).toEqual({ code: 128 + number, signal: null });
      expect(await gone(p.sleepPid)).toBe(true);
    });
  }

  it("SIGTERM with the program's own handler: the handler decides (here: stops the child, exits 7)", async () => {
    const p = await program("SIGTERM", true);
    p.child.kill("SIGTERM");
    // Not ended by the hook: still running while its own handler waits.
    await new Promise((r) => setTimeout(r, 100));
    expect(p.child.exitCode).toBeNull();
    expect(await p.exited).toEqual({ code: 7, signal: null });
    expect(p.out()).toContain("handled");
    expect(await gone(p.sleepPid)).toBe(true);
  });
});
