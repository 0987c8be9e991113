// `npm run bench [-- --smoke] [--only B2,B3] [--size 1000000]`
// Runs every workload (B1–B8, G1), each against a baseline measured in the same run, and writes
// JSON + a Markdown table with a description of the machine. Full runs go to docs/bench/results.*
// (committed); smoke runs (CI) go to .data/bench/smoke.* and only prove that every workload runs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensurePostgres, type PostgresHandle } from "../lib/postgres.ts";
import { repoRoot } from "../lib/paths.ts";
import type { BenchContext, BenchRow, Workload } from "./types.ts";

export const WORKLOAD_IDS = ["G1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"] as const;
/** Each workload's file under workloads/, named by what it measures (the ID stays the report's and CLI's name). */
const WORKLOAD_FILES: Record<(typeof WORKLOAD_IDS)[number], string> = {
  G1: "lifecycle-gas.ts",
  B1: "mission-read.ts",
  B2: "nearby.ts",
  B3: "feed.ts",
  B4: "search.ts",
  B5: "create-to-visible.ts",
  B6: "write-throughput.ts",
  B7: "indexer-backfill.ts",
  B8: "ws-fanout.ts",
};

const { values } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    only: { type: "string" },
    size: { type: "string" },
    out: { type: "string" },
  },
});
const smoke = values.smoke ?? false;
const only = values.only ? values.only.split(",").map((s) => s.trim().toUpperCase()) : undefined;
const missions = Number(values.size ?? (smoke ? 2_000 : 1_000_000));
const runId = new Date().toISOString().replace(/[:.]/g, "-");
const scratchDir = path.join(repoRoot, ".data", "bench", runId);
const outBase = values.out ?? (smoke ? path.join(repoRoot, ".data", "bench", "smoke") : path.join(repoRoot, "docs", "bench", "results"));
fs.mkdirSync(scratchDir, { recursive: true });

const log = (message: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function sh(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "n/a";
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    host: os.hostname(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 100) / 100),
    taskset: sh("sh", ["-c", "command -v taskset"]) !== "n/a",
    commit: sh("git", ["-C", repoRoot, "rev-parse", "--short", "HEAD"]),
    dirty: sh("git", ["-C", repoRoot, "status", "--porcelain"]) !== "",
  };
}

let pgHandle: PostgresHandle | undefined;
const ctx: BenchContext = {
  smoke,
  missions,
  scratchDir,
  shared: new Map(),
  log,
  async postgresUrl() {
    pgHandle ??= await ensurePostgres({ ephemeral: true, log: () => {} });
    return pgHandle.url;
  },
};

function fmtRatio(r: number | null): string {
  return r === null ? "n/a" : `${r.toFixed(2)}×`;
}

function markdown(meta: ReturnType<typeof machine>, rows: BenchRow[], startedAt: string, seconds: number): string {
  const lines = [
    `# Benchmark results${smoke ? " (smoke: tiny sizes, figures not meaningful)" : ""}`,
    "",
    `Run ${startedAt}, ${Math.round(seconds)} s, commit ${meta.commit}${meta.dirty ? " (uncommitted changes)" : ""}, dataset ${missions.toLocaleString("en-US")} missions.`,
    "",
    `Machine: ${meta.cpu}, ${meta.cores} cores, ${meta.memoryGiB} GiB, ${meta.os}, Node ${meta.node}, load average at start ${meta.loadAverageAtStart.join(" / ")}; load generator pinned with taskset: ${meta.taskset ? "yes" : "no"}.`,
    "",
    "| # | Workload | Figure | Baseline (same run) | Ratio | Goal | Met |",
    "|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.id} | ${r.workload} | ${r.figure} | ${r.baseline} | ${fmtRatio(r.ratio)} | ${r.goal} | ${r.met === null ? "–" : r.met ? "yes" : "**no**"} |`,
    ),
  ];
  const notes = rows.filter((r) => r.note);
  if (notes.length) lines.push("", "## Notes", "", ...notes.map((r) => `- **${r.id} ${r.workload}**: ${r.note}`));
  return lines.join("\n") + "\n";
}

async function main() {
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const meta = machine();
  const ids = WORKLOAD_IDS.filter((id) => !only || only.includes(id));
  const rows: BenchRow[] = [];
  let failed = 0;
  for (const id of ids) {
    const file = path.join(import.meta.dirname, "workloads", WORKLOAD_FILES[id]);
    log(`${id}: starting`);
    const w0 = performance.now();
    try {
      const mod = (await import(file)) as { workload: Workload };
      const produced = await mod.workload.run(ctx);
      rows.push(...produced);
      log(`${id}: done in ${Math.round((performance.now() - w0) / 1000)} s`);
    } catch (err) {
      failed++;
      const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
      log(`${id}: FAILED: ${message}`);
      rows.push({ id, workload: "(failed)", figure: "error", baseline: "–", ratio: null, goal: "–", met: false, note: message.split("\n")[0] });
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  fs.mkdirSync(path.dirname(outBase), { recursive: true });
  fs.writeFileSync(`${outBase}.json`, JSON.stringify({ startedAt, seconds, smoke, missions, machine: meta, rows }, null, 2) + "\n");
  const md = markdown(meta, rows, startedAt, seconds);
  fs.writeFileSync(`${outBase}.md`, md);
  process.stdout.write(md);
  log(`wrote ${path.relative(repoRoot, outBase)}.{json,md}`);
  await pgHandle?.stop();
  process.exit(failed ? 1 : 0);
}

main().catch(async (err) => {
  log(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await pgHandle?.stop().catch(() => {});
  process.exit(1);
});
