// Wall-clock per test file (import + hooks + tests), printed at the end, slowest first.
import type { Reporter, TestModule } from "vitest/node";
const t0 = new Map<string, number>();
const rows: [number, string, string][] = [];
export default class Timing implements Reporter {
  onTestModuleStart(m: TestModule) { t0.set(m.moduleId, Date.now()); }
  onTestModuleEnd(m: TestModule) {
    const d = m.diagnostic();
    rows.push([(Date.now() - (t0.get(m.moduleId) ?? Date.now())) / 1000, m.moduleId.split("/").pop()!, `collect ${(d.collectDuration / 1000).toFixed(1)} s, tests ${(d.duration / 1000).toFixed(1)} s`]);
  }
  onTestRunEnd() {
    rows.sort((a, b) => b[0] - a[0]);
    console.log(`\nwall per file (s), total ${rows.reduce((a, r) => a + r[0], 0).toFixed(0)}:`);
    for (const r of rows) console.log(`${r[0].toFixed(1).padStart(7)}  ${r[1]}  (${r[2]})`);
  }
}
