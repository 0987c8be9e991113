// Every repository path that README.md and docs/*.md name exists: a map that names a file that is gone
// sends a newcomer nowhere. A path is any word starting with one of the repository's top-level folders;
// `{a,b}` expands and `*` matches within one folder level, as in a shell.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const TOP = ["api", "indexer", "domain", "contracts", "script", "test", "abis", "docs", ".ci"];
const PATH = new RegExp(`(?<![\\w./-])((?:${TOP.map((t) => t.replace(".", "\\.")).join("|")})/[\\w./*{},+-]*[\\w*}])`, "g");

function expandBraces(p: string): string[] {
  const m = /\{([^{}]*)\}/.exec(p);
  if (!m) return [p];
  return m[1].split(",").flatMap((alt) => expandBraces(p.slice(0, m.index) + alt + p.slice(m.index + m[0].length)));
}

function exists(pattern: string): boolean {
  if (!pattern.includes("*")) return fs.existsSync(path.join(root, pattern));
  let dirs = [root];
  for (const segment of pattern.split("/").filter(Boolean)) {
    const re = new RegExp(`^${segment.replace(/[.+?^$()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    dirs = dirs.flatMap((d) => {
      if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) return [];
      return fs.readdirSync(d).filter((e) => re.test(e)).map((e) => path.join(d, e));
    });
  }
  return dirs.length > 0;
}

/** The paths `text` names, with trailing sentence punctuation removed. */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PATH)) found.add(m[1].replace(/[.,]+$/, ""));
  return [...found];
}

const docs = ["README.md", ...fs.readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("paths named in the README and docs/", () => {
  it("finds the paths it checks (the pattern is not empty)", () => {
    expect(namedPaths("see `api/deps.ts`, `api/routes/{a,b}.ts` and test/unit/*.test.ts.")).toEqual([
      "api/deps.ts",
      "api/routes/{a,b}.ts",
      "test/unit/*.test.ts",
    ]);
    expect(exists("api/deps.ts")).toBe(true);
    expect(exists("api/no-such-file.ts")).toBe(false);
    expect(exists("test/unit/*.test.ts")).toBe(true);
  });

  it.each(docs)("%s names only paths that exist", (doc) => {
    const text = fs.readFileSync(path.join(root, doc), "utf8");
    const missing = namedPaths(text).filter((p) => !expandBraces(p).every(exists));
    expect(missing).toEqual([]);
  });
});
