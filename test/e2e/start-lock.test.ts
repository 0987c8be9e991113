// npm start's lock (script/lib/start-lock.ts) after its pids were handed out again (a reboot, a
// container restarted with .data on a volume): a live process under a recorded pid is the recorded one
// only when it started when the lock says. Real processes (`sleep`), a real lock file.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../script/lib/ports.ts";
import { isAlive } from "../../script/lib/process.ts";
import { processStarted, takeLock, type Lock } from "../../script/lib/start-lock.ts";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
});

function sleeper(): number {
  const child = spawn("sleep", ["300"], { stdio: "ignore" });
  started.push(child.pid!);
  return child.pid!;
}
const lockFileWith = (lock: Lock) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "start-lock-")), "start.json");
  fs.writeFileSync(file, JSON.stringify(lock));
  return file;
};
const quiet = () => {};

describe("npm start's lock", () => {
  it("a process's start identity is stable, and another start's differs", () => {
    const a = sleeper();
    expect(processStarted(a)).not.toBeNull();
    expect(processStarted(a)).toBe(processStarted(a));
    expect(processStarted(process.pid)).not.toBe(processStarted(a));
    expect(processStarted(999_999_999)).toBeNull();
  });

  it("a supervisor and children whose pids now belong to other processes are left alone", async () => {
    const stranger = sleeper();
    const otherStranger = sleeper();
    const file = lockFileWith({
      pid: stranger, started: "another boot:12345",
      children: [{ name: "PostgreSQL", pid: otherStranger, started: "another boot:67890" }],
    });
    const lines: string[] = [];
    const track = await takeLock(file, (l) => lines.push(l));
    expect(lines).toEqual([]);
    expect(isAlive(stranger)).toBe(true);
    expect(isAlive(otherStranger)).toBe(true);
    const lock = JSON.parse(fs.readFileSync(file, "utf8")) as Lock;
    expect(lock).toMatchObject({ pid: process.pid, started: processStarted(process.pid), children: [] });
    track("anvil", otherStranger);
    expect((JSON.parse(fs.readFileSync(file, "utf8")) as Lock).children).toEqual([{ name: "anvil", pid: otherStranger, started: processStarted(otherStranger) }]);
  });

  it("a supervisor that still runs is refused; the children a killed one left are stopped", async () => {
    const supervisor = sleeper();
    await expect(takeLock(lockFileWith({ pid: supervisor, started: processStarted(supervisor), children: [] }), quiet)).rejects.toThrow(/already running \(pid/);
    const leftover = sleeper();
    const lines: string[] = [];
    process.kill(supervisor, "SIGKILL");
    await waitFor("the old supervisor to exit", async () => !isAlive(supervisor), { timeoutMs: 5_000 });
    await takeLock(lockFileWith({ pid: 999_999_999, started: null, children: [{ name: "anvil", pid: leftover, started: processStarted(leftover) }] }), (l) => lines.push(l));
    expect(lines).toEqual([`stopping the anvil (pid ${leftover}) left by an npm start that was killed`]);
    await waitFor("the leftover to stop", async () => !isAlive(leftover), { timeoutMs: 10_000 });
  });
});
