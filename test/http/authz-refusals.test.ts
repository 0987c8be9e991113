// The authorization matrix's refusals that happen before any handler: every route of the real router
// (/v2 copies included) with no token (unless public), an expired token and a tampered one must answer
// 401 UNAUTHORIZED in the envelope. The token is checked before any query, so no chain or database
// is needed; the cells that reach handlers (another user, the right user) stay in
// test/e2e/security-authz.test.ts.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { MATRIX, type Fixture, type RouteSpec, type Who } from "../e2e/security-matrix.ts";
import { httpApp, JWT_SECRET, type HttpRes } from "./http-app.ts";

const http = httpApp();
afterAll(() => http.close());

const WHO: Who[] = ["poster", "performer", "stranger", "curator", "resolver", "appeals", "poster2", "performer2", "vault1", "vault2"];
const users = Object.fromEntries(WHO.map((w) => [w, { id: randomUUID(), address: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() }])) as Fixture["users"];
// Ids only fill the paths: the refusal comes before anything looks them up.
const fixture: Fixture = {
  users,
  ...Object.fromEntries(
    ["missionOpen", "missionToAccept", "missionToCancel", "missionAccepted", "missionSubmitted", "missionToDispute", "missionCompleted",
      "missionGuild", "guild", "disputePending", "disputeInvestigating", "disputeResolved", "disputeAppealed", "notificationOfPoster", "webhookOfPoster"]
      .map((k) => [k, randomUUID()]),
  ),
} as Fixture;

const secret = new TextEncoder().encode(JWT_SECRET);
const token = (who: Who, iat: number, exp: number) =>
  new SignJWT({ addr: users[who].address })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(users[who].id)
    .setIssuer("mission-marketplace-api")
    .setAudience("mission-marketplace")
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(secret);
const now = () => Math.floor(Date.now() / 1000);
const expiredToken = (who: Who) => token(who, now() - 90_000, now() - 3_600);
/** A validly signed token with the payload swapped to another user's (a privilege escalation attempt). */
async function tamperedToken(who: Who) {
  const [h, p, s] = (await token(who, now(), now() + 3_600)).split(".");
  const payload = JSON.parse(Buffer.from(p!, "base64url").toString());
  const target: Who = who === "curator" ? "appeals" : "curator";
  payload.sub = users[target].id;
  payload.addr = users[target].address;
  return `${h}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.${s}`;
}

/**
 * The router's routes as `METHOD path`, and their /v2 copies: /v2 is routed as the unprefixed path
 * (api/routes/create-app.ts routedPath), so every route has one, called separately.
 */
function routeTable() {
  const seen = new Set<string>();
  for (const r of http.app.routes) {
    if (r.method === "ALL") continue; // middleware
    seen.add(`${r.method} ${r.path}`);
  }
  const base = [...seen];
  return { base, v2: base.map((k) => k.replace(" /", " /v2/")) };
}

async function send(method: string, spec: RouteSpec, bearer: string | undefined, prefix: string): Promise<HttpRes> {
  const req = spec.req(fixture);
  if (req.body === "SIGN_IN") {
    return http.request(method, `${prefix}${req.path}`, { token: bearer, body: { address: users[spec.right].address, signature: "0x00" } });
  }
  if (req.form) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(req.form)) fd.append(k, v);
    return http.request(method, `${prefix}${req.path}`, { token: bearer, raw: fd });
  }
  return http.request(method, `${prefix}${req.path}`, { token: bearer, body: req.body });
}

describe("authorization matrix: refusals before any handler", () => {
  it("every route of the router has a row, and every row a route", () => {
    const { base, v2 } = routeTable();
    const missing = base.filter((k) => !MATRIX[k]);
    const stale = Object.keys(MATRIX).filter((k) => !base.includes(k));
    const v2Missing = v2.filter((k) => !MATRIX[k.replace(" /v2/", " /")] && !k.endsWith(" /v2/openapi.json"));
    expect(missing, "routes without an expected-access row in security-matrix.ts").toEqual([]);
    expect(stale, "rows of security-matrix.ts without a route").toEqual([]);
    expect(v2Missing).toEqual([]);
  });

  it("no token (non-public routes), an expired and a tampered token: 401 UNAUTHORIZED on every route and /v2 copy", async () => {
    const off: string[] = [];
    let cells = 0;
    const check = (cell: string, res: HttpRes) => {
      cells++;
      if (res.status !== 401 || res.body?.error?.code !== "UNAUTHORIZED" || typeof res.body.error.message !== "string") {
        off.push(`${cell}: expected 401 UNAUTHORIZED, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    };
    const { base, v2 } = routeTable();
    for (const k of [...base, ...v2]) {
      const prefix = k.includes(" /v2/") ? "/v2" : "";
      const spec = MATRIX[k.replace(" /v2/", " /")];
      if (!spec) continue; // /v2/openapi.json is checked by the route-table test
      const method = k.split(" ")[0]!;
      if (spec.access.kind !== "public") check(`${k} [no token]`, await send(method, spec, undefined, prefix));
      check(`${k} [expired]`, await send(method, spec, await expiredToken(spec.right), prefix));
      check(`${k} [tampered]`, await send(method, spec, await tamperedToken(spec.right), prefix));
    }
    expect(cells).toBeGreaterThan(400);
    expect(off).toEqual([]);
  });
});
