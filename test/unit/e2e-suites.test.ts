// `npm test` runs the fast e2e suite (project e2e) and CI adds the long one (project e2e-long, `npm run
// test:long`): every e2e file must be in exactly one of them, as vitest itself resolves the projects,
// and both commands must stay wired up, so that splitting the suite can never drop a test file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_LONG } from "../e2e/suites.ts";

const root = path.resolve(import.meta.dirname, "../..");
const e2eDir = path.join(root, "test/e2e");

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(path.join(dir, e.name)) : e.name.endsWith(".test.ts") ? [path.relative(root, path.join(dir, e.name))] : [],
  );
}

/** What vitest would run for each e2e project (`vitest list --filesOnly`: globs only, no stack started). */
function listed(): { file: string; projectName: string }[] {
  const out = execFileSync(
    process.execPath,
    [path.join(root, "node_modules/vitest/vitest.mjs"), "list", "--config", "test/vitest.config.ts", "--filesOnly", "--json", "--project", "e2e", "--project", "e2e-long"],
    { cwd: root, encoding: "utf8" },
  );
  return (JSON.parse(out) as { file: string; projectName: string }[]).map((f) => ({ ...f, file: path.relative(root, f.file) }));
}

describe("the e2e suites", () => {
  it("hold every test/e2e file exactly once: the fast one (npm test) or the long one (CI)", () => {
    const files = testFiles(e2eDir).sort();
    expect(files.length).toBeGreaterThan(40);
    const runs = listed();
    for (const f of files) {
      const where = runs.filter((r) => r.file === f).map((r) => r.projectName);
      expect(where, f).toHaveLength(1);
      expect(where[0], f).toBe((E2E_LONG as readonly string[]).includes(f) ? "e2e-long" : "e2e");
    }
    expect(runs.map((r) => r.file).sort()).toEqual(files);
    for (const f of E2E_LONG) expect(files, `${f} is listed in test/e2e/suites.ts but does not exist`).toContain(f);
  }, 60_000);

  it("are both run: npm test runs test:e2e (project e2e), CI runs npm test and test:long (project e2e-long)", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(scripts.test!.split("&&").map((s) => s.trim())).toContain("npm run test:e2e");
    expect(scripts["test:e2e"]).toMatch(/--project e2e(\s|$)/);
    expect(scripts["test:long"]).toMatch(/--project e2e-long(\s|$)/);
    const ci = fs.readFileSync(path.join(root, ".ci/run"), "utf8").split("\n").map((l) => l.trim());
    expect(ci).toContain("npm test");
    expect(ci).toContain("npm run test:long");
    expect(ci.indexOf("npm run test:long")).toBeGreaterThan(ci.indexOf("npm test"));
  });
});
