// The front door as people use it: the real `npm start` (the supervisor, not its pieces) on a fresh
// data directory, with the ports a platform would set. It owns its own PostgreSQL, anvil, Ponder and
// API, so it shares nothing with the other e2e files but the machine.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_NODE_FLAGS } from "../../api/node-flags.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { repoRoot } from "../../script/lib/paths.ts";
import { freePort, portIsFree, waitFor } from "../../script/lib/ports.ts";
import { isAlive } from "../../script/lib/process.ts";
import { call, signIn } from "./api-helpers.ts";

interface Supervisor {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start` in its own process group, as a terminal runs it (Ctrl-C reaches the whole group). */
function npmStart(env: Record<string, string>): Supervisor {
  const base = { ...process.env };
  // The e2e stack's own settings must not leak into a supervisor that starts its own.
  for (const key of ["DATABASE_URL", "RPC_URL", "RPC_WS_URL", "DEPLOYMENT_FILE", "PORT", "HOST", "INDEXER_PORT", "DATA_DIR"]) delete base[key];
  const child = spawn("npm", ["start"], { cwd: repoRoot, env: { ...base, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout!.on("data", (b: Buffer) => (text += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (text += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** A fresh data directory; as root, PostgreSQL's own user must be able to reach the cluster inside it. */
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "marketplace-start-"));
  fs.chmodSync(dir, 0o755);
  return dir;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("npm start with PORT and INDEXER_PORT", () => {
  const dataDir = tempDataDir();
  let apiPort = 0;
  let indexerPort = 0;
  let supervisor: Supervisor | undefined;
  let base = "";
  // Only a port that was free before may be required free after (a developer's own server may hold one).
  const defaultsFreeBefore: Record<number, boolean> = {};

  beforeAll(async () => {
    apiPort = await freePort();
    indexerPort = await freePort();
    for (const port of [3000, 42069]) defaultsFreeBefore[port] = !(await listening(port));
    supervisor = npmStart({
      PORT: String(apiPort),
      INDEXER_PORT: String(indexerPort),
      DATA_DIR: dataDir,
      DEPLOYMENT_FILE: path.join(dataDir, "deployment.json"),
    });
    const s = supervisor;
    await waitFor("npm start to print Ready", async () => s.output().includes("Ready in"), {
      timeoutMs: 240_000,
      intervalMs: 250,
      abort: s.exited.then((code) => Promise.reject(new Error(`npm start exited (${code}):\n${s.output()}`))),
    });
    base = `http://127.0.0.1:${apiPort}`;
  }, 300_000);

  afterAll(async () => {
    if (supervisor && supervisor.child.exitCode === null && supervisor.child.signalCode === null) {
      try {
        process.kill(-supervisor.child.pid!, "SIGINT");
      } catch {
        // already gone
      }
      await Promise.race([supervisor.exited, new Promise((r) => setTimeout(r, 30_000))]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("serves /health, /config and /graphql on PORT, Ponder on INDEXER_PORT, and nothing on the defaults", async () => {
    expect(supervisor!.output()).toContain(`http://127.0.0.1:${apiPort}`);
    await waitFor("/health 200", async () => (await call(base, "GET", "/health")).status === 200, { timeoutMs: 60_000 });
    const config = await call(base, "GET", "/config");
    expect(config.status).toBe(200);
    expect(config.body.chainId).toBe(31337);
    const gql = await call(base, "POST", "/graphql", { body: { query: "{ __typename }" } });
    expect(gql.status).toBe(200);
    expect(gql.body).toEqual({ data: { __typename: "Query" } });
    const ponder = await fetch(`http://127.0.0.1:${indexerPort}/ready`);
    expect(ponder.status).toBe(200);
    for (const port of [3000, 42069]) {
      if (defaultsFreeBefore[port]) expect(await listening(port), `something listens on ${port}`).toBe(false);
    }
    // The API runs with its node flags (api/node-flags.ts), which only whoever starts it can set.
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, "start.json"), "utf8")) as { children: { name: string; pid: number }[] };
    const apiPid = lock.children.find((c) => c.name === "API")!.pid;
    const argv = fs.readFileSync(`/proc/${apiPid}/cmdline`, "utf8").split("\0");
    for (const flag of API_NODE_FLAGS) expect(argv).toContain(flag);
  });

  it("npm run demo -- --fresh completes a mission with two new wallets that never hold ETH", async () => {
    const rpcUrl = /chain\s+(http:\/\/\S+)/.exec(supervisor!.output())?.[1];
    expect(rpcUrl, "the Ready banner names the chain").toBeDefined();
    const demo = spawn("npm", ["run", "demo", "--", "--fresh"], {
      cwd: repoRoot,
      env: { ...process.env, API_URL: base, RPC_URL: rpcUrl! },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    demo.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    demo.stderr!.on("data", (b: Buffer) => (out += b.toString()));
    const code = await new Promise<number | null>((resolve) => demo.on("exit", resolve));
    expect(code, out).toBe(0);
    expect(out).toMatch(/GET \/missions\/[0-9a-f-]+ -> 200[\s\S]*"state": "Completed"/);
    expect(out.match(/: 0 wei of ETH/g)?.length, out).toBe(2);
  }, 120_000);

  it("a second npm start on the same API port fails at once and names the port", async () => {
    const other = tempDataDir();
    try {
      const started = Date.now();
      const second = npmStart({ PORT: String(apiPort), DATA_DIR: other, DEPLOYMENT_FILE: path.join(other, "deployment.json") });
      const code = await Promise.race([second.exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 30_000))]);
      if (code === "hung") process.kill(-second.child.pid!, "SIGKILL");
      expect(code, second.output()).not.toBe("hung");
      expect(code).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(second.output()).toContain(`port ${apiPort} is already in use`);
      // The first stack still answers: the failed start touched nothing of it.
      expect((await call(base, "GET", "/config")).status).toBe(200);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it("a mission with expiresIn 60 reads Expired within 20 s of its expiry, with no other traffic", async () => {
    const poster = anvilAccount(1);
    const token = await signIn(base, poster);
    const created = await call(base, "POST", "/missions", {
      token,
      body: {
        title: "Water the plants",
        description: "Twice, in the morning",
        rewardAmount: "3",
        category: "other",
        expiresIn: 60,
        location: { latitude: 48.8566, longitude: 2.3522, radius: 100 },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id: string = created.body.data.id;
    const expiresAtMs = Date.parse(created.body.data.expiresAt);
    expect(Number.isFinite(expiresAtMs)).toBe(true);
    await waitFor(
      "the mission to read Expired",
      async () => (await call(base, "GET", `/missions/${id}`, { token })).body.data?.state === "Expired",
      { timeoutMs: Math.max(expiresAtMs - Date.now(), 0) + 20_000, intervalMs: 500 },
    );
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAtMs);
  }, 120_000);

  it("Ctrl-C stops every child and frees the ports", async () => {
    const lockFile = path.join(dataDir, "start.json");
    const lock = JSON.parse(fs.readFileSync(lockFile, "utf8")) as { pid: number; children: { name: string; pid: number }[] };
    expect(lock.children.map((c) => c.name).sort()).toEqual(["API", "PostgreSQL", "anvil", "indexer"]);
    const s = supervisor!;
    // A terminal's Ctrl-C: SIGINT to the whole foreground group (npm and the supervisor).
    process.kill(-s.child.pid!, "SIGINT");
    await waitFor("the supervisor to exit", async () => !isAlive(lock.pid), { timeoutMs: 30_000 });
    for (const c of lock.children) expect(isAlive(c.pid), `${c.name} (pid ${c.pid}) still runs`).toBe(false);
    expect(s.output()).toContain("PostgreSQL stopped");
    expect(fs.existsSync(lockFile), "the supervisor removes its lock on a clean exit").toBe(false);
    expect(await portIsFree(apiPort)).toBe(true);
    expect(await portIsFree(indexerPort)).toBe(true);
  }, 60_000);
});
