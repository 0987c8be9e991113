// The response checker the e2e `call` helper applies to all traffic: it must find the right route
// and refuse bodies that break the documented schema.
import { describe, expect, it } from "vitest";
import { checkResponse, findRoute } from "../lib/response-schemas.ts";

const json = "application/json; charset=utf-8";

describe("checkResponse", () => {
  it("prefers a literal segment over a parameter and ignores /v2 and the query", () => {
    expect(findRoute("GET", "/missions/nearby?lat=1")?.path).toBe("/missions/nearby");
    expect(findRoute("GET", "/v2/missions/abc")?.path).toBe("/missions/{id}");
    expect(findRoute("GET", "/resolver/disputes/mission/x")?.path).toBe("/resolver/disputes/mission/{missionId}");
    expect(findRoute("GET", "/graphql")).toBeUndefined();
  });

  it("accepts a documented body and refuses a wrong one", () => {
    const body = { success: true, updated: 3 };
    expect(() => checkResponse("POST", "/notifications/read-all", 200, json, body)).not.toThrow();
    expect(() => checkResponse("POST", "/notifications/read-all", 200, json, { success: "yes", updated: 3 })).toThrow(/success/);
  });

  it("refuses an undocumented 2xx, a non-envelope error and a JSON route answering in text", () => {
    expect(() => checkResponse("POST", "/notifications/read-all", 201, json, {})).toThrow(/not documented/);
    expect(() => checkResponse("GET", "/missions/x", 500, json, { message: "boom" })).toThrow(/error/);
    expect(() => checkResponse("GET", "/missions/x", 500, json, { error: { code: "INTERNAL", message: "boom" } })).not.toThrow();
    expect(() => checkResponse("POST", "/notifications/read-all", 200, "text/plain", "ok")).toThrow(/Content-Type/);
  });
});
