// Secure headers, CORS and the CSPs of /docs and GraphiQL on every kind of response: decided by the
// middlewares and static pages alone, so no chain and no database are needed.
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { DOCUMENT_HEADERS } from "../../api/middlewares/security.ts";
import { httpApp } from "./http-app.ts";

const ORIGIN = "https://app.example.test";
const http = httpApp({ CORS_ORIGINS: `${ORIGIN}, http://localhost:5173` });
afterAll(() => http.close());

describe("secure headers and CORS", () => {
  it("every kind of response carries the secure headers", async () => {
    const responses = [
      await http.request("GET", "/health"),
      await http.request("GET", "/missions/not-a-mission"),
      await http.request("GET", "/no/such/route"),
      await http.request("POST", "/auth/message", { body: { address: "nope" } }),
      await http.request("GET", "/users/me", { token: "x.y.z" }),
      await http.request("GET", "/openapi.json"),
    ];
    expect(responses.map((r) => r.status)).toEqual([503, 503, 404, 400, 401, 200]);
    for (const r of responses) {
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
      expect(r.headers.get("referrer-policy")).toBe("no-referrer");
      expect(r.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(r.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(r.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(r.headers.get("x-powered-by")).toBeNull();
      // Headers only a rendered document reads are the HTML pages' (below), not JSON's.
      for (const name of Object.keys(DOCUMENT_HEADERS)) expect(r.headers.get(name), name).toBeNull();
    }
  });

  it("the HTML pages carry the document headers beside the API's and their own CSP", async () => {
    const pages = [await http.app.request("/docs"), await http.app.request("/graphql", { headers: { accept: "text/html" } })];
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      for (const [name, value] of Object.entries(DOCUMENT_HEADERS)) expect(page.headers.get(name), name).toBe(value);
      expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
      expect(page.headers.get("content-security-policy")).not.toContain("default-src 'none'");
      await page.text();
    }
  });

  it("CORS allows the configured origins only, incl. preflights and exposed rate-limit headers", async () => {
    const pre = await http.app.request("/missions", {
      method: "OPTIONS",
      headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type,idempotency-key" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(pre.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();

    const get = await http.request("GET", "/openapi.json", { headers: { Origin: "http://localhost:5173" } });
    expect(get.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(get.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(get.headers.get("vary")).toContain("Origin");

    const evil = await http.request("GET", "/openapi.json", { headers: { Origin: "https://evil.example" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const evilPre = await http.app.request("/missions", { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
    expect(evilPre.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("/docs works under its CSP: local assets, the one inline script allowed by its hash, no unsafe-inline script", async () => {
    const res = await http.app.request("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get("content-security-policy")!;
    const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).not.toContain("unsafe-inline");
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBe(1);
    expect(scriptSrc).toContain(`'sha256-${createHash("sha256").update(inline[0]!).digest("base64")}'`);
    expect(scriptSrc).toContain("'self'");
    for (const m of html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)) {
      const asset = await http.app.request(m[1]!);
      expect(asset.status, m[1]).toBe(200);
      await asset.arrayBuffer();
    }
    expect((await http.request("GET", "/openapi.json")).status).toBe(200); // connect-src 'self'
    expect(csp).toContain("connect-src 'self'");
  });

  it("/graphql's GraphiQL page loads only this server's files, under a CSP of 'self'", async () => {
    const page = await http.app.request("/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval|sha256-/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(5);
    for (const src of sources) {
      expect(src, "a same-origin path").toMatch(/^\/graphql\/assets\//);
      const asset = await http.app.request(src);
      expect(asset.status, src).toBe(200);
      await asset.arrayBuffer();
    }
    // The GraphQL endpoint itself (no indexer here) answers in the envelope, with the headers.
    const g = await http.request("POST", "/graphql", { body: { query: "{ __typename }" } });
    expect(g.status).toBe(503);
    expect(g.body.error.code).toBeTypeOf("string");
    expect(g.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
