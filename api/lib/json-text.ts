// JSON text built elsewhere (PostgreSQL's json_build_object, missions.repository.ts viewJson), sent on
// without being parsed and serialised again. The brand says what the text parses to, so a route's
// typed response is checked as it is for c.json(value).
import type { Context, TypedResponse } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { JSONParsed } from "hono/utils/types";

export type JsonText<T> = string & { readonly __parsesTo: T };

/** The text as an application/json response, typed as c.json() of the value it encodes. */
export function sendJson<T, S extends ContentfulStatusCode>(c: Context, text: JsonText<T>, status: S): Response & TypedResponse<JSONParsed<T>, S, "json"> {
  return c.body(text, status, { "Content-Type": "application/json" }) as unknown as Response & TypedResponse<JSONParsed<T>, S, "json">;
}
