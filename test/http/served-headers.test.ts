// The request path writes its headers two ways (api/middlewares/request-path.ts): onto node's response
// when the app is served, onto the Response under app.request(). Every kind of response must carry the
// same headers both ways: the same app served on a loopback port and driven in-process, compared.
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveOptions } from "../../api/app.ts";
import { httpApp } from "./http-app.ts";

const ORIGIN = "https://app.example.test";
const http = httpApp({ CORS_ORIGINS: ORIGIN });
// Two servers: the API's own options (its ServerResponse writes the request path's headers in
// writeHead, api/lib/api-response.ts) and node-server's plain serve() (they are set one by one).
const servers: { name: string; server?: ServerType; base: string }[] = [{ name: "the API's server", base: "" }, { name: "plain serve()", base: "" }];
beforeAll(async () => {
  for (const [i, s] of servers.entries()) {
    await new Promise<void>((resolve) => {
      s.server = serve({ fetch: http.app.fetch, port: 0, hostname: "127.0.0.1", ...(i === 0 ? serveOptions() : {}) }, (info: AddressInfo) => {
        s.base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  }
});
afterAll(async () => {
  for (const s of servers) await new Promise<void>((r) => s.server!.close(() => r()));
  await http.close();
});
const base = () => servers[0]!.base;

/** Headers that depend on the transport or the moment, not on the app. */
const TRANSPORT = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
const VARYING = new Set(["x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset"]);

const CASES: [string, string, RequestInit?][] = [
  ["JSON 200", "/openapi.json", { headers: { Origin: ORIGIN } }],
  ["/v2 JSON 200", "/v2/openapi.json"],
  ["503 envelope", "/health"],
  ["404", "/v2/no/such/route"],
  ["405 with Allow", "/missions", { method: "PUT" }],
  ["400 validation", "/auth/message", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ address: "nope" }) }],
  ["415", "/auth/message", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" }],
  ["401 bad token", "/users/me", { headers: { Authorization: "Bearer x.y.z" } }],
  ["preflight", "/missions", { method: "OPTIONS", headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST" } }],
  ["HTML with its own CSP", "/docs"],
  ["HEAD", "/openapi.json", { method: "HEAD" }],
];

const view = (res: Response) => {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!TRANSPORT.has(k)) out[k] = VARYING.has(k) ? "*" : v;
  });
  return { status: res.status, headers: out };
};

describe("headers served over a socket = headers under app.request()", () => {
  it.each(CASES)("%s", async (_name, path, init) => {
    const inProcess = await http.app.request(path, init);
    await inProcess.arrayBuffer();
    for (const { name, base } of servers) {
      const served = await fetch(`${base}${path}`, init);
      await served.arrayBuffer();
      const s = view(served);
      expect({ server: name, ...s }).toEqual({ server: name, ...view(inProcess) });
      expect(s.headers["x-content-type-options"]).toBe("nosniff");
      expect(s.headers["x-frame-options"]).toBe("DENY");
      expect(s.headers["content-security-policy"]).toMatch(/default-src '(none|self)'/);
      expect(served.headers.get("x-request-id")).toMatch(/^[\w-]{8,}$/);
    }
  });

  it("a plain caller X-Request-Id is echoed, a strange one replaced", async () => {
    const plain = await fetch(`${base()}/openapi.json`, { headers: { "X-Request-Id": "trace-42_a=b" } });
    expect(plain.headers.get("x-request-id")).toBe("trace-42_a=b");
    const odd = await fetch(`${base()}/openapi.json`, { headers: { "X-Request-Id": "a b;c" } });
    expect(odd.headers.get("x-request-id")).not.toBe("a b;c");
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("the rate-limit headers count every counted request, served or not", async () => {
    const a = await fetch(`${base()}/openapi.json`);
    const b = await fetch(`${base()}/openapi.json`);
    expect(Number(a.headers.get("x-ratelimit-remaining")) - Number(b.headers.get("x-ratelimit-remaining"))).toBe(1);
    expect(a.headers.get("x-ratelimit-limit")).toBe("100000");
  });
});
