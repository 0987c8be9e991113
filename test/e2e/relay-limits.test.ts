// Limits on what a wallet can make the relayer pay for: a budget of relayed transactions per wallet
// and hour (shared by API copies through PostgreSQL), and the faucet's hourly limit per address, which
// a vault deletion does not reset. Real anvil, PostgreSQL, Ponder (shared) and two API copies.
import type { Abi, Address } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { operatorOf } from "../../domain/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";

const BUDGET = 3;
let api: TestApi, copy: TestApi;
let chain: ReturnType<typeof chainEnv>;
let guildId: string;

const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
};
const ok = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const sent = async () => ({
  nonce: await chain.client.getTransactionCount({ address: chain.deployment.relayer as Address, blockTag: "pending" }),
  outbox: Number((await api.server.deps.database.pool.query("SELECT count(*) AS n FROM api.relayer_outbox")).rows[0].n),
});
async function setUpUser(): Promise<{ u: PrivateKeyAccount; token: string }> {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  return { u, token: await signIn(api.url, u) };
}
const join = (base: string, token: string) => call(base, "POST", `/guilds/${guildId}/join`, { token });
const leave = (base: string, token: string) => call(base, "POST", `/guilds/${guildId}/leave`, { token });

beforeAll(async () => {
  chain = chainEnv();
  const env = { REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", RELAYER_TX_PER_HOUR: String(BUDGET) };
  api = await startTestApi(env, { indexer: "shared" });
  copy = await startTestApi(env, { indexer: "shared" });
  guildId = (await call(api.url, "GET", "/guilds")).body.find((g: any) => g.name === "demo-guild").id;
});
afterAll(async () => {
  await copy?.stop();
  await api?.stop();
});

describe("relayer budget per wallet and hour", () => {
  it(`${BUDGET} relayed writes pass; the next is 429 RATE_LIMITED with Retry-After on every copy, and sends nothing`, async () => {
    const { u, token } = await setUpUser();
    ok(await join(api.url, token));
    ok(await leave(copy.url, token)); // the other copy counts into the same budget
    ok(await join(api.url, token));
    const before = await sent();
    for (const [base, t] of [[api.url, token], [copy.url, await signIn(copy.url, u)]] as const) {
      const r = await leave(base, t);
      expectError(r, 429, "RATE_LIMITED");
      expect(r.body.error.message).toMatch(/relayed transactions/);
      const retry = Number(r.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(3_500);
      expect(retry).toBeLessThanOrEqual(3_600);
    }
    expect(await sent()).toEqual(before);
    // The refused leave did not happen: still a member.
    expect(ok(await call(api.url, "GET", `/guilds/${guildId}`, { token })).membership).not.toBeNull();
  });

  it("another wallet has its own budget; no-op refusals and the faucet do not spend it", async () => {
    const { token } = await setUpUser();
    expectError(await leave(api.url, token), 409, "NOT_MEMBER");
    expectError(await leave(api.url, token), 409, "NOT_MEMBER");
    ok(await call(api.url, "POST", "/faucet", { token }));
    ok(await join(api.url, token));
    ok(await leave(api.url, token));
    ok(await join(api.url, token));
    expectError(await leave(api.url, token), 429, "RATE_LIMITED");
  });

  it("creates refused by their checks do not spend it (the create charges beside its checks and takes the charge back)", async () => {
    const { token } = await setUpUser();
    const create = (rewardAmount: string) =>
      call(api.url, "POST", "/missions", { token, body: { title: "Budget", description: "relay limits", rewardAmount, category: "delivery", expiresIn: 3600 } });
    const before = await sent();
    // More refused creates than the budget: the user's balance is 10,000 (freshUser).
    for (let i = 0; i < BUDGET + 1; i++) expectError(await create("20000"), 422, "INSUFFICIENT_BALANCE");
    expect(await sent()).toEqual(before);
    for (let i = 0; i < BUDGET; i++) expect((await create("1")).status).toBe(201);
    expectError(await create("1"), 429, "RATE_LIMITED");
  });

  it("a vault deletion resets neither the budget nor the faucet's hourly limit", async () => {
    const { u, token } = await setUpUser();
    ok(await call(api.url, "POST", "/faucet", { token }));
    for (let i = 0; i < BUDGET; i++) ok(await (i % 2 ? leave : join)(api.url, token));
    expectError(await call(api.url, "POST", "/faucet", { token }), 429, "RATE_LIMITED");
    const d = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const again = await signIn(api.url, u);
    const f = await call(api.url, "POST", "/faucet", { token: again });
    expectError(f, 429, "RATE_LIMITED");
    expect(Number(f.headers.get("retry-after"))).toBeGreaterThan(3_500);
    expectError(await leave(api.url, again), 429, "RATE_LIMITED");
  });

  it("the faucet's limit is the address's: a wallet that never had an account is paid once", async () => {
    const u = privateKeyToAccount(generatePrivateKey());
    ok(await call(api.url, "POST", "/faucet", { token: await signIn(api.url, u) }));
    expectError(await call(copy.url, "POST", "/faucet", { token: await signIn(copy.url, u) }), 429, "RATE_LIMITED");
  });
});
