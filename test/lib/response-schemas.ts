// Every response a test receives is checked against the zod schema its route documents (the same
// schemas that generate /openapi.json), so the document cannot drift from what the API sends.
import type { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../api/lib/openapi-schemas.ts";
import { apiRouter } from "../../api/openapi.ts";

interface RouteEntry {
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

let table: RouteEntry[] | undefined;

function routes(): RouteEntry[] {
  if (table) return table;
  table = [];
  for (const d of apiRouter().openAPIRegistry.definitions) {
    if (d.type !== "route") continue;
    const { method, path, responses } = d.route;
    const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
    table.push({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${source}/?$`),
      params: (path.match(/\{/g) ?? []).length,
      responses: responses as RouteEntry["responses"],
    });
  }
  return table;
}

/** The documented route a request reaches (a literal segment beats a parameter, as in the router). */
export function findRoute(method: string, url: string): RouteEntry | undefined {
  const path = new URL(url, "http://x").pathname.replace(/^\/v2(?=\/)/, "");
  const hits = routes().filter((r) => r.method === method.toUpperCase() && r.pattern.test(path));
  return hits.sort((a, b) => a.params - b.params)[0];
}

/**
 * Throws when `body` does not match the schema documented for (method, path, status). A 2xx the
 * route does not document fails; an undocumented error status must still be the error envelope.
 * Paths outside the document (GraphQL, docs, assets) and bodiless answers are not checked.
 */
export function checkResponse(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  if (method === "HEAD" || method === "OPTIONS" || status === 204 || status === 304) return;
  const route = findRoute(method, url);
  if (!route) return;
  const where = `${method} ${url} -> ${status} (route ${route.method} ${route.path})`;
  const documented = route.responses[String(status)] ?? route.responses.default;
  if (!documented) {
    if (status < 400) throw new Error(`${where}: status not documented`);
    return parse(ErrorSchema, body, where);
  }
  const json = documented.content?.["application/json"];
  if (!json?.schema) return; // binary downloads and bodiless responses
  if (!contentType?.includes("application/json")) throw new Error(`${where}: documented as JSON, got ${contentType ?? "no"} Content-Type`);
  parse(json.schema as z.ZodType, body, where);
}

function parse(schema: z.ZodType, body: unknown, where: string): void {
  const r = schema.safeParse(body);
  if (r.success) return;
  const issues = r.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).slice(0, 10);
  throw new Error(`${where}: response does not match its documented schema\n  ${issues.join("\n  ")}`);
}
