// The OpenAPI document as a product: lint it with Redocly and turn it into client types with
// openapi-typescript, exactly as a client developer would from GET /openapi.json.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const REDOCLY_CONFIG = path.join(root, "api/redocly.yaml");
export const CLIENT_TYPES_FILE = path.join(root, "api/client/openapi-types.ts");
const REDOCLY_BIN = path.join(root, "node_modules/.bin/redocly");

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  /** JSON pointer of the first location, e.g. "#/paths/~1ratings~1{id}~1verify". */
  pointer: string;
}

/**
 * Runs `redocly lint` (the project's config) on a document, once: the CLI costs seconds to start, so
 * `report` (one line per problem) is written from its JSON output rather than by a second run.
 */
export async function lintDocument(doc: object): Promise<{ problems: LintProblem[]; report: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
  try {
    const file = path.join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(doc, null, 2));
    let stdout: string;
    try {
      stdout = (await promisify(execFile)(REDOCLY_BIN, ["lint", file, "--config", REDOCLY_CONFIG, "--format=json", "--max-problems=1000"], { cwd: dir, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } })).stdout;
    } catch (err) {
      // The CLI exits 1 when it finds errors; the output is what matters here.
      const e = err as { stdout?: string };
      if (typeof e.stdout !== "string" || e.stdout.length === 0) throw err;
      stdout = e.stdout;
    }
    const json = JSON.parse(stdout) as {
      problems: { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] }[];
    };
    const problems = json.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location[0]?.pointer ?? "" }));
    const report = problems.map((p) => `${p.severity === "error" ? "error  " : "warning"}  ${p.ruleId}  ${p.pointer}\n  ${p.message}\n`).join("");
    return { problems, report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The TypeScript types of a document (openapi-typescript), with the "generated, do not edit" header. */
export async function clientTypes(doc: object): Promise<string> {
  const ast = await openapiTS(doc as OpenAPI3);
  return `${COMMENT_HEADER}// Regenerate with \`npm run openapi:types\` (from the document GET /openapi.json serves).\n\n${astToString(ast)}`;
}
