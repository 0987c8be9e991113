// No import cycles in the TypeScript the product runs (madge over the real import graph, with the
// project's tsconfig resolving `.ts` specifiers). A cycle makes load order decide behaviour.
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("import graph", () => {
  it("has no cycles in api, indexer, domain and script", async () => {
    const graph = await madge(["api", "indexer", "domain", "script"].map((d) => path.join(root, d)), {
      fileExtensions: ["ts"],
      tsConfig: path.join(root, "tsconfig.json"),
      excludeRegExp: [/node_modules/, /[\\/]generated[\\/]/],
    });
    expect(Object.keys(graph.obj()).length, "madge read the files").toBeGreaterThan(200);
    expect(graph.circular()).toEqual([]);
  }, 120_000);
});
