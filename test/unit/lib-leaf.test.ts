// api/lib/ is the bottom of the API: errors, logger, metrics, ports, TLS. It imports nothing above
// it (no composition root, no repository, no service), so anything may use it without a cycle or a
// hidden dependency. Checked on the real import graph (madge, type-only imports included): every
// file reachable from api/lib lies in api/lib, in the shared vocabulary domain/, or in the generated
// abis/ that domain/ itself builds on. npm packages are not part of madge's graph.
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const BELOW = ["api/lib/", "domain/", "abis/"];

describe("api/lib is a leaf", () => {
  it("imports only api/lib, domain/ and abis/ (transitively)", async () => {
    const graph = await madge(path.join(root, "api/lib"), {
      fileExtensions: ["ts"],
      tsConfig: path.join(root, "tsconfig.json"),
      baseDir: root,
    });
    const files = graph.obj();
    expect(Object.keys(files).filter((f) => f.startsWith("api/lib/")).length, "madge read api/lib").toBeGreaterThan(5);
    expect(graph.warnings().skipped, "every import resolved").toEqual([]);
    const below = (f: string) => BELOW.some((b) => f.startsWith(b));
    // The first step out (madge follows it further; those files are not named).
    const above = Object.entries(files).filter(([from]) => below(from)).flatMap(([from, to]) =>
      to.filter((t) => !below(t)).map((t) => `${from} -> ${t}`));
    expect(above).toEqual([]);
  }, 60_000);
});
