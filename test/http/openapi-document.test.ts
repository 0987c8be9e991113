// The document GET /openapi.json serves, as a client developer meets it: linted with Redocly, every
// operation named and secured, and the source of the committed client types. It is built from the
// route schemas alone, so no chain or database is needed.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, clientTypes, lintDocument } from "../../script/lib/openapi.ts";
import { httpApp } from "./http-app.ts";

// Deliberate warnings (docs/decisions.md, "OpenAPI document"): no license is declared, and these paths
// are fixed by the API contract; a dispute or rating id is a UUID, so "mission" never matches {id}.
const DELIBERATE_WARNINGS = [
  "info-license #/info",
  ...["evidence", "take", "resolve", "appeal", "finalize", "release"].map((a) => `no-ambiguous-paths #/paths/~1resolver~1disputes~1{id}~1${a}`),
  "no-ambiguous-paths #/paths/~1ratings~1{id}~1verify",
].sort();

const http = httpApp();
let doc: Record<string, any>;

beforeAll(async () => {
  const res = await http.request("GET", "/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body as Record<string, any>;
});
afterAll(() => http.close());

describe("the document at /openapi.json", () => {
  it("lints with 0 errors under Redocly's recommended rules, and only the deliberate warnings", async () => {
    const { problems, report } = await lintDocument(doc);
    expect(problems.filter((p) => p.severity === "error"), report).toEqual([]);
    const warnings = problems.filter((p) => p.severity === "warn").map((p) => `${p.ruleId} ${p.pointer}`).sort();
    expect(warnings, report).toEqual(DELIBERATE_WARNINGS);
  }, 120_000);

  it("names every operation once, in camelCase, and says who may call it", () => {
    const ids: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(Array.isArray(op.security), `${method} ${path} declares security`).toBe(true);
        ids.push(op.operationId);
      }
    }
    expect(ids.length).toBeGreaterThan(70);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths["/missions"].post.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/auth/message"].post.security).toEqual([]);
  });

  it("is the document the committed client types were generated from", async () => {
    expect(await clientTypes(doc), "run `npm run openapi:types`").toBe(await readFile(CLIENT_TYPES_FILE, "utf8"));
  });
});
