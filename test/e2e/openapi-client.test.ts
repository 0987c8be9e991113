// The OpenAPI document as a client developer meets it, used through openapi-fetch for the demo flow
// against a running API (real anvil, PostgreSQL, Ponder). The client is typed by the committed
// generated types, so a wrong path, parameter or body in this file is a compile error
// (`npx tsc -p tsconfig.json --noEmit`). The document itself (lint, operation ids, the committed
// types) needs no chain: test/http/openapi-document.test.ts.
import createClient from "openapi-fetch";
import type { LocalAccount } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../api/client/openapi-types.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { checkResponse } from "../lib/response-schemas.ts";
import { startTestApi, type TestApi } from "./api-helpers.ts";

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({}, { indexer: "shared" });
});
afterAll(async () => {
  await api?.stop();
});

describe("a generated client (openapi-typescript + openapi-fetch)", () => {
  const client = (token?: string) => {
    const c = createClient<paths>({ baseUrl: api.url, headers: token ? { Authorization: `Bearer ${token}` } : {} });
    // Every answer is checked against its route's documented schema, as the e2e `call` helper does.
    c.use({
      async onResponse({ request, response }) {
        const text = await response.clone().text();
        const url = new URL(request.url);
        checkResponse(request.method, url.pathname + url.search, response.status, response.headers.get("content-type"), text ? JSON.parse(text) : text);
      },
    });
    return c;
  };

  async function signIn(account: LocalAccount): Promise<string> {
    const m = await client().POST("/auth/message", { body: { address: account.address } });
    expect(m.response.status, JSON.stringify(m.error)).toBe(200);
    const signature = await account.signMessage({ message: m.data!.message });
    const v = await client().POST("/auth/verify", { body: { address: account.address, signature } });
    expect(v.response.status, JSON.stringify(v.error)).toBe(200);
    return v.data!.token;
  }

  it("runs the demo flow: sign in, create, accept, submit, approve, Completed", async () => {
    const poster = client(await signIn(anvilAccount(1)));
    const performer = client(await signIn(anvilAccount(2)));

    const created = await poster.POST("/missions", {
      body: {
        title: "Water the plants",
        description: "Balcony, twice a week",
        rewardAmount: "5",
        category: "home",
        expiresIn: 3600,
        location: { latitude: 48.8566, longitude: 2.3522, radius: 100 },
      },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const id = created.data!.data.id;
    expect(created.data!.data.state).toBe("Open");

    const accepted = await performer.POST("/missions/{id}/accept", { params: { path: { id } } });
    expect(accepted.response.status, JSON.stringify(accepted.error)).toBe(200);
    expect(accepted.data!.data.mission.state).toBe("Accepted");

    const submitted = await performer.POST("/missions/{id}/submit", {
      params: { path: { id } },
      body: { proofType: "url", proofData: "https://example.org/plants.jpg" },
    });
    expect(submitted.response.status, JSON.stringify(submitted.error)).toBe(200);
    expect(submitted.data!.data.proofHash).toMatch(/^0x[0-9a-f]{64}$/);

    const approved = await poster.POST("/missions/{id}/approve", { params: { path: { id } }, body: { rating: 5 } });
    expect(approved.response.status, JSON.stringify(approved.error)).toBe(200);
    expect(approved.data!.data.settlement.performerAmount).toMatch(/^\d+\.\d{6}$/);

    const read = await client().GET("/missions/{id}", { params: { path: { id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.data.state).toBe("Completed");

    // Errors arrive typed as the spec's envelope.
    const again = await poster.POST("/missions/{id}/approve", { params: { path: { id } }, body: {} });
    expect(again.response.status).toBe(409);
    expect(again.error!.error.code).toMatch(/^[A-Z_]+$/);
  });
});
