// The app's router (api/lib/shape-router.ts) must answer every match as hono's TrieRouter does: the same
// handlers in the same order with the same parameters, for the app's own route table, on the first
// match of a shape and on every later one (rebuilt from the remembered shape).
import { TrieRouter } from "hono/router/trie-router";
import { afterAll, describe, expect, it } from "vitest";
import { ShapeRouter } from "../../api/lib/shape-router.ts";
import { httpApp } from "./http-app.ts";

const http = httpApp();
afterAll(() => http.close());

/** Paths from every route of the app: each `:param` as several values, a spelled segment among them. */
function pathsOf(routes: readonly { path: string }[]): string[] {
  const values = ["0f6a3b1e-8d7c-4a8e-9b1a-2c3d4e5f6a7b", "42", "nearby", "me", "x%2Fy", "same", "*", ":id", "%E2%80%A6"];
  const out = new Set<string>(["/", "", "/missions//x", "/no/such/route", "/missions/a/b/c/d/e/f/g/h/i/j/k", "/missions/same/settlement/same"]);
  for (const { path } of routes) {
    for (const v of values) out.add(path.replace(/:[^/]+/g, v).replace(/\*$/, v));
    out.add(path.replace(/:[^/]+/g, (_, i: number) => `v${i}`));
    out.add(`${path}/extra`);
  }
  return [...out];
}

describe("ShapeRouter = TrieRouter", () => {
  it("matches the app's route table alike, first and remembered matches", () => {
    const routes = http.app.routes;
    const trie = new TrieRouter<unknown>();
    const shape = new ShapeRouter<unknown>();
    for (const r of routes) {
      const h = [r.handler, r]; // one object per route, as hono adds them
      trie.add(r.method, r.path, h);
      shape.add(r.method, r.path, h);
    }
    const plain = (res: unknown) => JSON.parse(JSON.stringify(res, (k, v) => (typeof v === "function" ? undefined : v)));
    const same = (res: unknown, exp: unknown) => {
      // Handlers by identity, parameters by value and key order, null-prototype objects both.
      const [a, b] = [(res as [unknown, object][][])[0]!, (exp as [unknown, object][][])[0]!];
      expect(a.length).toBe(b.length);
      a.forEach(([h, p], i) => {
        expect(h).toBe(b[i]![0]);
        expect(Object.getPrototypeOf(p)).toBe(Object.getPrototypeOf(b[i]![1]));
        expect(Object.entries(p)).toEqual(Object.entries(b[i]![1]));
      });
      expect(plain(res)).toEqual(plain(exp));
    };
    const paths = pathsOf(routes);
    let matched = 0;
    for (const method of ["GET", "POST", "PATCH", "DELETE", "PUT", "HEAD", "OPTIONS"]) {
      for (const round of [0, 1, 2]) {
        for (const p of round === 1 ? [...paths].reverse() : paths) {
          const exp = trie.match(method, p);
          same(shape.match(method, p), exp);
          if (exp[0].length > 1) matched++;
        }
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });

  it("gives way to the TrieRouter when a route has a pattern its shapes cannot express", () => {
    const shape = new ShapeRouter<string>();
    const trie = new TrieRouter<string>();
    for (const [m, p, h] of [["GET", "/a/:id{[0-9]+}", "num"], ["GET", "/a/:name", "name"], ["GET", "/b/file*", "prefix"]] as const) {
      shape.add(m, p, h);
      trie.add(m, p, h);
    }
    for (const p of ["/a/12", "/a/x", "/a/13", "/a/y", "/b/file1", "/b/other"]) {
      expect(JSON.stringify(shape.match("GET", p))).toBe(JSON.stringify(trie.match("GET", p)));
    }
  });
});
