// Framework-level answers in the error envelope and the JWT checks: decided by the middlewares before
// any query, so no chain or database is needed (SIWE sign-in, which stores nonces, stays in
// test/e2e/api-auth.test.ts).
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { httpApp, JWT_SECRET, type HttpRes } from "./http-app.ts";

const http = httpApp();
afterAll(() => http.close());

const expectError = (res: HttpRes, status: number, code: string) => {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe("string");
};

describe("JWT", () => {
  const secret = new TextEncoder().encode(JWT_SECRET);
  const claims = { sub: randomUUID(), addr: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() };
  const protectedCall = (token: string) => http.request("POST", "/missions/x/cancel", { token });

  it("rejects alg none", async () => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    const token = `${enc({ alg: "none", typ: "JWT" })}.${enc({ ...claims, iss: "mission-marketplace-api", aud: "mission-marketplace", iat: now, exp: now + 60 })}.`;
    expectError(await protectedCall(token), 401, "UNAUTHORIZED");
  });

  it("rejects a wrong issuer or audience, an expired token and another secret", async () => {
    const sign = (iss: string, aud: string, exp: number, key = secret) =>
      new SignJWT({ addr: claims.addr }).setProtectedHeader({ alg: "HS256" }).setSubject(claims.sub).setIssuer(iss)
        .setAudience(aud).setIssuedAt().setExpirationTime(exp).sign(key);
    const now = Math.floor(Date.now() / 1000);
    expectError(await protectedCall(await sign("someone-else", "mission-marketplace", now + 60)), 401, "UNAUTHORIZED");
    expectError(await protectedCall(await sign("mission-marketplace-api", "other", now + 60)), 401, "UNAUTHORIZED");
    expectError(await protectedCall(await sign("mission-marketplace-api", "mission-marketplace", now - 10)), 401, "UNAUTHORIZED");
    const other = new TextEncoder().encode("another-secret-another-secret-another-secret");
    expectError(await protectedCall(await sign("mission-marketplace-api", "mission-marketplace", now + 60, other)), 401, "UNAUTHORIZED");
    // The right claims with the right secret pass the token check and go on to look the user up,
    // which needs the database (absent here): 503, not 401.
    expectError(await protectedCall(await sign("mission-marketplace-api", "mission-marketplace", now + 60)), 503, "DATABASE_UNAVAILABLE");
  });

  it("requires a token on writes", async () => {
    expectError(await http.request("POST", "/missions", { body: {} }), 401, "UNAUTHORIZED");
    expectError(await http.request("POST", "/missions/x/accept", { headers: { Authorization: "Basic abc" } }), 401, "UNAUTHORIZED");
  });
});

describe("error envelope", () => {
  it("404 for unknown routes, 405 for wrong methods (with Allow)", async () => {
    expectError(await http.request("GET", "/nope"), 404, "NOT_FOUND");
    expectError(await http.request("GET", "/v2/nope/deeper"), 404, "NOT_FOUND");
    const res = await http.request("DELETE", "/auth/message");
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toContain("POST");
    expectError(await http.request("PUT", "/v2/missions"), 405, "METHOD_NOT_ALLOWED");
  });

  it("415 for a body that is not JSON, 400 for malformed JSON", async () => {
    expectError(await http.request("POST", "/auth/message", { raw: "address=0x1", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await http.request("POST", "/auth/message", { raw: "{bad", headers: { "Content-Type": "application/json" } }), 400, "VALIDATION_ERROR");
  });

  it("413 for an oversized body", async () => {
    const big = JSON.stringify({ address: "0x" + "a".repeat(200_000) });
    expectError(await http.request("POST", "/auth/message", { raw: big, headers: { "Content-Type": "application/json" } }), 413, "PAYLOAD_TOO_LARGE");
  });

  it("validation names the field and the reason, before any lookup", async () => {
    const r = await http.request("GET", "/missions?take=101&sortBy=title");
    expectError(r, 400, "VALIDATION_ERROR");
    expect(r.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(["query.sortBy", "query.take"]);
    expectError(await http.request("GET", "/missions?minReward=abc"), 400, "VALIDATION_ERROR");
  });
});
