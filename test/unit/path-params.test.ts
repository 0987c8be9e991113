// api/routes/path-params.ts stands in for zod-openapi's param validator on length-only path params:
// the same route through createRouter() and through a plain OpenAPIHono (the zod validator) must answer
// every id alike, and register the same OpenAPI entry.
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../api/app-types.ts";
import { createApp, createRouter, validationHook } from "../../api/routes/create-app.ts";
import { lengthOnly } from "../../api/routes/path-params.ts";
import { IdParam } from "../../api/routes/missions/missions.schemas.ts";

const Pair = z.object({
  a: z.string().min(2).max(5).openapi({ param: { name: "a", in: "path" } }),
  b: z.string().max(3).openapi({ param: { name: "b", in: "path" } }),
});
const one = createRoute({ method: "get", path: "/t/{id}", request: { params: IdParam }, responses: { 200: { description: "ok" } } });
const two = createRoute({ method: "get", path: "/p/{a}/{b}", request: { params: Pair }, responses: { 200: { description: "ok" } } });
const handler = (c: any) => c.json({ got: c.req.valid("param") }, 200);

function apps() {
  const fast = createRouter().openapi(one, handler).openapi(two, handler);
  const viaZod = new OpenAPIHono<AppEnv>({ strict: false, defaultHook: validationHook }).openapi(one, handler).openapi(two, handler);
  const root = (r: OpenAPIHono<AppEnv>) => createApp().route("/", r);
  return { fast, viaZod, a: root(fast as never), b: root(viaZod as never) };
}

describe("length-only path params without the zod validator", () => {
  it("finds the length-only schemas and leaves the others to zod", () => {
    expect(lengthOnly(IdParam)).toEqual([["id", 1, 100]]);
    expect(lengthOnly(Pair)).toEqual([["a", 2, 5], ["b", 0, 3]]);
    expect(lengthOnly(z.object({ id: z.uuid() }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.string().uuid() }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.email() }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.coerce.string() }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.string().regex(/^x/) }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.string().trim() }))).toBeNull();
    expect(lengthOnly(z.object({ id: z.string().optional() }))).toBeNull();
  });

  it("answers every id as the zod validator does", async () => {
    const { a, b } = apps();
    const paths = [
      "/t/x", `/t/${"y".repeat(100)}`, `/t/${"y".repeat(101)}`, "/t/%E2%9C%93", `/t/${"%41".repeat(101)}`, "/v2/t/abc",
      "/p/ab/c", "/p/a/c", "/p/abcdef/c", "/p/abc/defg", "/p/a/defg", "/p/ab/",
    ];
    for (const p of paths) {
      const [x, y] = await Promise.all([a.request(p), b.request(p)]);
      expect({ p, status: x.status, body: await x.json() }).toEqual({ p, status: y.status, body: await y.json() });
    }
    const bad = await a.request(`/t/${"y".repeat(101)}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe("path.id");
  });

  it("registers the same OpenAPI entries", () => {
    const { fast, viaZod } = apps();
    const doc = (r: OpenAPIHono<AppEnv>) => r.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(doc(fast as never)).toEqual(doc(viaZod as never));
  });
});
