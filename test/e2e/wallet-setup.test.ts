// A wallet nobody pre-seeded gets ready by signing (GET/POST /wallet/setup), then does everything
// through REST with no ETH: the relayer pays every gas. Refusals send nothing (the relayer's nonce
// and its outbox stay as they were). Real anvil, PostgreSQL, Ponder and API; fresh viem keys.
import fs from "node:fs";
import { createWalletClient, encodeFunctionData, http, maxUint256, toHex, type Abi, type Address, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guildRegistryAbi, operatorRegistryAbi, testStablecoinAbi } from "../../abis/index.ts";
import { operatorOf, parseAmount } from "../../domain/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv, usdc } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
const relayer = () => chain.deployment.relayer as Address;
/** The address users approve: the deployment's executor (every pool key forwards through it). */
const operator = () => operatorOf(chain.deployment);
const mission = (rewardAmount: string) => ({
  title: "Water the plants", description: "Twice, on Monday and Thursday", rewardAmount, category: "home", expiresIn: 3600,
});
const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
};
const tokenBalance = (a: Address) =>
  chain.client.readContract({ address: chain.c.Stablecoin.address, abi: testStablecoinAbi as Abi, functionName: "balanceOf", args: [a] }) as Promise<bigint>;
/** Relayer nonce and outbox size: a refusal must leave both as they were. */
const sent = async () => ({
  nonce: await chain.client.getTransactionCount({ address: relayer(), blockTag: "pending" }),
  outbox: Number((await api.server.deps.database.pool.query("SELECT count(*) AS n FROM api.relayer_outbox")).rows[0].n),
});
const fresh = () => privateKeyToAccount(generatePrivateKey());

async function signSteps(signer: LocalAccount, steps: any[], edit: (td: any) => void = () => {}) {
  const out = [];
  for (const step of steps.filter((s) => !s.done)) {
    const td = structuredClone(step.typedData);
    edit(td);
    out.push({ id: step.id, message: td.message, signature: await signer.signTypedData(td) });
  }
  return out;
}
async function setUp(token: string, signer: LocalAccount) {
  const g = await call(api.url, "GET", "/wallet/setup", { token });
  expect(g.status, JSON.stringify(g.body)).toBe(200);
  const signatures = await signSteps(signer, g.body.steps);
  const p = await call(api.url, "POST", "/wallet/setup", { token, body: { signatures } });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  return { signatures, result: p.body };
}

beforeAll(async () => {
  chain = chainEnv();
  // No reactors or keeper: nothing but the requests here may move the relayer's nonce.
  api = await startTestApi({ REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0" }, { indexer: "shared" });
});
afterAll(async () => {
  await api?.stop();
});

describe("a wallet that never held ETH", () => {
  const poster = fresh();
  const performer = fresh();
  let pt: string;
  let wt: string;
  let posterSignatures: any[];

  it("signs in; a write before set-up is 403 SETUP_REQUIRED and sends nothing", async () => {
    [pt, wt] = [await signIn(api.url, poster), await signIn(api.url, performer)];
    const before = await sent();
    const r = await call(api.url, "POST", "/missions", { token: pt, body: mission("10") });
    expectError(r, 403, "SETUP_REQUIRED");
    expect(r.body.error.message).toContain("/wallet/setup");
    expect(await sent()).toEqual(before);
  });

  it("POST /faucet mints 1,000 to the caller once per hour (429 after)", async () => {
    const f = await call(api.url, "POST", "/faucet", { token: pt });
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    expect(f.body.amount).toBe("1000.000000");
    expect(await tokenBalance(poster.address)).toBe(1_000_000_000n);
    const again = await call(api.url, "POST", "/faucet", { token: pt });
    expectError(again, 429, "RATE_LIMITED");
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(3500);
  });

  it("GET /wallet/setup lists both steps with EIP-712 typed data (integers as decimal strings)", async () => {
    const g = await call(api.url, "GET", "/wallet/setup", { token: pt });
    expect(g.status).toBe(200);
    expect(g.body.ready).toBe(false);
    expect(g.body.steps.map((s: any) => [s.id, s.done])).toEqual([["operator", false], ["allowance", false]]);
    const [op, permit] = g.body.steps;
    expect(op.typedData).toMatchObject({
      primaryType: "SetOperator",
      domain: { chainId: "31337", verifyingContract: chain.c.OperatorRegistry.address },
      message: { user: poster.address, operator: operator(), approved: true, nonce: "0" },
    });
    expect(permit.typedData).toMatchObject({
      primaryType: "Permit",
      domain: { chainId: "31337", verifyingContract: chain.c.Stablecoin.address, version: "1" },
      message: { owner: poster.address, spender: chain.c.MissionEscrow.address, value: maxUint256.toString(), nonce: "0" },
    });
    expect(permit.typedData.types.EIP712Domain).toBeDefined();
  });

  it("refuses a foreign, tampered, expired, or other-chain signature; nothing is sent", async () => {
    const steps = (await call(api.url, "GET", "/wallet/setup", { token: pt })).body.steps;
    const before = await sent();
    const post = (signatures: unknown) => call(api.url, "POST", "/wallet/setup", { token: pt, body: { signatures } });
    expectError(await post(await signSteps(performer, steps)), 400, "INVALID_SIGNATURE"); // foreign
    const tampered = await signSteps(poster, steps);
    tampered[1]!.message = { ...tampered[1]!.message, value: "1" };
    expectError(await post(tampered), 400, "INVALID_SIGNATURE");
    const past = String((await chain.now()) - 10n);
    expectError(await post(await signSteps(poster, steps, (td) => (td.message.deadline = past))), 400, "SIGNATURE_EXPIRED");
    expectError(await post(await signSteps(poster, steps, (td) => (td.domain.chainId = "1"))), 400, "INVALID_SIGNATURE");
    const wrongOperator = await signSteps(poster, steps, (td) => td.message.operator && (td.message.operator = performer.address));
    expectError(await post(wrongOperator), 400, "VALIDATION_ERROR");
    expect(await sent()).toEqual(before);
    expect((await call(api.url, "GET", "/wallet/setup", { token: pt })).body.ready).toBe(false);
  });

  it("POST relays both (relayer pays), the next GET agrees; a repeat is refused (409) and sends nothing", async () => {
    const { signatures, result } = await setUp(pt, poster);
    posterSignatures = signatures;
    expect(result.ready).toBe(true);
    expect(result.transactionHashes).toHaveLength(2);
    const g = await call(api.url, "GET", "/wallet/setup", { token: pt });
    expect(g.body).toEqual({ ready: true, steps: [{ id: "operator", done: true }, { id: "allowance", done: true }] });
    const before = await sent();
    const again = await call(api.url, "POST", "/wallet/setup", { token: pt, body: { signatures } });
    expectError(again, 409, "INVALID_STATE");
    expect(again.body.error.message).toContain("already done");
    expect(await sent()).toEqual(before);
    expect((await setUp(wt, performer)).result.ready).toBe(true);
  });

  it("DELETE revokes; a replayed signature is refused (409) and sends nothing; signing again restores", async () => {
    const d = await call(api.url, "DELETE", "/wallet/setup", { token: pt });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.ready).toBe(false);
    const g = await call(api.url, "GET", "/wallet/setup", { token: pt });
    expect(g.body.steps.map((s: any) => [s.id, s.done])).toEqual([["operator", false], ["allowance", true]]);
    expectError(await call(api.url, "POST", "/missions", { token: pt, body: mission("1") }), 403, "SETUP_REQUIRED");
    const before = await sent();
    expectError(await call(api.url, "POST", "/wallet/setup", { token: pt, body: { signatures: posterSignatures } }), 409, "SIGNATURE_REPLAYED");
    expect(await sent()).toEqual(before);
    const { result } = await setUp(pt, poster);
    expect(result).toMatchObject({ ready: true });
    expect(result.transactionHashes).toHaveLength(1);
  });

  it("a revocation on-chain (the user's signed SetOperator(false), sent by someone else) shows the same", async () => {
    const steps = (await call(api.url, "GET", "/wallet/setup", { token: pt })).body.steps;
    expect(steps[0].done).toBe(true);
    const nonce = (await chain.client.readContract({ address: chain.c.OperatorRegistry.address, abi: operatorRegistryAbi as Abi, functionName: "nonces", args: [poster.address] })) as bigint;
    const deadline = (await chain.now()) + 600n;
    const signature = await poster.signTypedData({
      domain: { name: "MissionMarketplace Operators", version: "1", chainId: 31337, verifyingContract: chain.c.OperatorRegistry.address },
      types: { SetOperator: [{ name: "user", type: "address" }, { name: "operator", type: "address" }, { name: "approved", type: "bool" }, { name: "nonce", type: "uint256" }, { name: "deadline", type: "uint256" }] },
      primaryType: "SetOperator",
      message: { user: poster.address, operator: operator(), approved: false, nonce, deadline },
    });
    await chain.send(chain.faucet, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperatorWithSig", [poster.address, operator(), false, deadline, signature]);
    const g = await call(api.url, "GET", "/wallet/setup", { token: pt });
    expect(g.body.ready).toBe(false);
    expect(g.body.steps[0]).toMatchObject({ id: "operator", done: false, typedData: { message: { nonce: String(nonce + 1n) } } });
    await setUp(pt, poster);
  });

  it("posts, the other accepts and submits, the first approves: balances to the base unit, ETH still 0", async () => {
    const reward = parseAmount("100");
    const c = await call(api.url, "POST", "/missions", { token: pt, body: mission("100") });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(await tokenBalance(poster.address)).toBe(1_000_000_000n - reward);
    const id = c.body.data.id;
    for (const [path, token, body] of [["accept", wt, undefined], ["submit", wt, { proofType: "text", proofData: "done" }]] as const) {
      const r = await call(api.url, "POST", `/missions/${id}/${path}`, { token, body });
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
    }
    const a = await call(api.url, "POST", `/missions/${id}/approve`, { token: pt });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const paid = parseAmount(a.body.data.settlement.performerAmount);
    expect(paid).toBeGreaterThan(0n);
    expect(paid).toBeLessThan(reward);
    expect(await tokenBalance(performer.address)).toBe(paid);
    expect(await tokenBalance(poster.address)).toBe(1_000_000_000n - reward);
    expect(await chain.client.getBalance({ address: poster.address })).toBe(0n);
    expect(await chain.client.getBalance({ address: performer.address })).toBe(0n);
  });

  it("cancel, a dispute by the fresh performer and a guild join work too, still without ETH", async () => {
    const before = await tokenBalance(poster.address);
    const c = await call(api.url, "POST", "/missions", { token: pt, body: mission("7.5") });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const x = await call(api.url, "POST", `/missions/${c.body.data.id}/cancel`, { token: pt });
    expect(x.status, JSON.stringify(x.body)).toBe(200);
    expect(await tokenBalance(poster.address)).toBe(before);

    expect((await call(api.url, "POST", "/faucet", { token: wt })).status).toBe(200);
    const m = await call(api.url, "POST", "/missions", { token: pt, body: mission("20") });
    const id = m.body.data.id;
    expect((await call(api.url, "POST", `/missions/${id}/accept`, { token: wt })).status).toBe(200);
    expect((await call(api.url, "POST", `/missions/${id}/submit`, { token: wt, body: { proofType: "text", proofData: "done" } })).status).toBe(200);
    const held = await tokenBalance(performer.address);
    const d = await call(api.url, "POST", `/missions/${id}/dispute`, { token: wt, body: { reason: "The poster does not answer" } });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(await tokenBalance(performer.address)).toBeLessThan(held); // the dispute reserve, pulled by the permit's allowance

    const guilds = await call(api.url, "GET", "/guilds");
    const demo = guilds.body.find((g: any) => g.name === "demo-guild");
    const j = await call(api.url, "POST", `/guilds/${demo.id}/join`, { token: wt });
    expect(j.status, JSON.stringify(j.body)).toBe(200);
    expect(await chain.client.readContract({ address: chain.c.GuildRegistry.address, abi: guildRegistryAbi as Abi, functionName: "isMember", args: [Number(demo.onChainId), performer.address] })).toBe(true);
    expect(await chain.client.getBalance({ address: poster.address })).toBe(0n);
    expect(await chain.client.getBalance({ address: performer.address })).toBe(0n);
  });
});

describe("partial states", () => {
  it("approved the escrow itself but not the operator: only the operator step", async () => {
    const u = await chain.freshUser();
    const g = await call(api.url, "GET", "/wallet/setup", { token: await signIn(api.url, u) });
    expect(g.body.ready).toBe(false);
    expect(g.body.steps[0]).toMatchObject({ id: "operator", done: false, typedData: { primaryType: "SetOperator" } });
    expect(g.body.steps[1]).toEqual({ id: "allowance", done: true });
  });

  it("an allowance below the reward gets the permit step, and create is SETUP_REQUIRED", async () => {
    const u = await chain.freshUser();
    await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operator(), true]);
    await chain.send(u, chain.c.Stablecoin.address, testStablecoinAbi as Abi, "approve", [chain.c.MissionEscrow.address, usdc(5)]);
    const token = await signIn(api.url, u);
    const g = await call(api.url, "GET", "/wallet/setup", { token });
    expect(g.body.steps[0]).toEqual({ id: "operator", done: true });
    expect(g.body.steps[1]).toMatchObject({ id: "allowance", done: false, typedData: { primaryType: "Permit" } });
    const before = await sent();
    expectError(await call(api.url, "POST", "/missions", { token, body: mission("10") }), 403, "SETUP_REQUIRED");
    expect(await sent()).toEqual(before);
    expect((await call(api.url, "POST", "/missions", { token, body: mission("4") })).status).toBe(201);
  });

  it("a wallet with everything is ready with nothing to sign", async () => {
    const g = await call(api.url, "GET", "/wallet/setup", { token: await signIn(api.url, anvilAccount(1)) });
    expect(g.body).toEqual({ ready: true, steps: [{ id: "operator", done: true }, { id: "allowance", done: true }] });
  });
});

describe("an EIP-1271 contract wallet", () => {
  it("sets up by its owner's signature and posts", async () => {
    const owner = fresh();
    await chain.client.request({ method: "anvil_setBalance", params: [owner.address, toHex(10n ** 18n)] } as never);
    const artifact = JSON.parse(fs.readFileSync("out/MinimalSmartWallet.sol/MinimalSmartWallet.json", "utf8"));
    const ownerWallet = createWalletClient({ account: owner, chain: foundry, transport: http(inject("rpcUrl")) });
    const hash = await ownerWallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode.object as Hex, args: [owner.address] });
    const account = (await chain.client.waitForTransactionReceipt({ hash })).contractAddress!;
    const approve = encodeFunctionData({ abi: testStablecoinAbi as Abi, functionName: "approve", args: [chain.c.MissionEscrow.address, maxUint256] });
    await chain.send(owner, account, artifact.abi, "execute", [chain.c.Stablecoin.address, approve]);
    await chain.send(chain.faucet, chain.c.Stablecoin.address, testStablecoinAbi as Abi, "mint", [account, usdc(50)]);

    const m = await call(api.url, "POST", "/auth/message", { body: { address: account } });
    const v = await call(api.url, "POST", "/auth/verify", { body: { address: account, signature: await owner.signMessage({ message: m.body.message }) } });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    const token = v.body.token;
    const g = await call(api.url, "GET", "/wallet/setup", { token });
    expect(g.body.steps[1]).toEqual({ id: "allowance", done: true });
    const signatures = await signSteps(owner, g.body.steps);
    expect(signatures.map((s) => s.id)).toEqual(["operator"]);
    const p = await call(api.url, "POST", "/wallet/setup", { token, body: { signatures } });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body.ready).toBe(true);
    const c = await call(api.url, "POST", "/missions", { token, body: mission("12.5") });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(await tokenBalance(account)).toBe(usdc(50) - usdc(12.5));
  });
});
