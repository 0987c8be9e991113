// Path parameters checked without the zod validator where zod would only check lengths (issue 40:
// bench B1's GET /missions/:id paid zod-openapi's async param validation, a whole middleware layer,
// for `z.string().min(1).max(100)`). A value out of bounds still goes through the schema, so every
// error is the validator's own; the OpenAPI document is unchanged.
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-types.ts";

type Check = { _zod: { def: { check: string } } };
type ZodLike = {
  _zod?: { def?: { type?: string; checks?: Check[]; catchall?: unknown; format?: unknown; coerce?: unknown } };
  shape?: Record<string, ZodLike>;
  minLength?: number | null;
  maxLength?: number | null;
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown };
};
export type Bounds = [name: string, min: number, max: number][];
type ParamHook = (result: { success: boolean; data: unknown; error?: unknown; target: "param" }, c: never) => unknown;

/** The length bounds of an object of plain strings with at most min/max length checks, else null. */
export function lengthOnly(schema: unknown): Bounds | null {
  const s = schema as ZodLike;
  const def = s._zod?.def;
  if (!s.shape || def?.type !== "object" || def.checks?.length || def.catchall !== undefined) return null;
  const out: Bounds = [];
  for (const [name, field] of Object.entries(s.shape)) {
    const d = field._zod?.def;
    // A format (z.uuid(), z.email()...) is the schema's own check, not in `checks`.
    if (d?.type !== "string" || d.format !== undefined || d.coerce || !(d.checks ?? []).every((c) => c._zod.def.check === "min_length" || c._zod.def.check === "max_length")) return null;
    out.push([name, field.minLength ?? 0, field.maxLength ?? Number.POSITIVE_INFINITY]);
  }
  return out;
}

/** Checks `schema`'s params as zod-openapi's validator would (same validated data, same errors via `hook`, thrown). */
export function checkPathParams(schema: unknown, bounds: Bounds, hook: ParamHook): (c: Context<AppEnv>) => void {
  return (c) => {
    const out: Record<string, string> = {};
    for (const [name, min, max] of bounds) {
      const v = c.req.param(name);
      if (typeof v !== "string" || v.length < min || v.length > max) {
        const data = c.req.param();
        const result = (schema as ZodLike).safeParse(data);
        hook({ ...result, data, target: "param" }, c as never); // throws the envelope's 400
        if (!result.success) throw new Error("path parameter hook did not refuse an invalid value");
        c.req.addValidatedData("param", result.data as Record<string, string>);
        return;
      }
      out[name] = v;
    }
    c.req.addValidatedData("param", out);
  };
}

/** Stands in for zod-openapi's param validator of `schema`, as a middleware at the validator's place. */
export function pathParams(schema: unknown, bounds: Bounds, hook: ParamHook): MiddlewareHandler<AppEnv> {
  const check = checkPathParams(schema, bounds, hook);
  return (c, next) => {
    check(c);
    return next();
  };
}
