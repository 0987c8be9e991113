// The relayer key pool on a real anvil, API and PostgreSQL (docs/decisions.md "Relayer key pool
// (executor)"). Three fresh keys (RELAYER_PRIVATE_KEYS) hold RELAYER_ROLE on the deployment's
// RelayerExecutor; users approved the executor once. Concurrent creates spread over every key, each
// key's nonces stay contiguous and every mission belongs to its user whichever key sent it. Rotation:
// the admin grants a new key and revokes an old one, the API restarts on the new list, and a user who
// authorised once still writes; the revoked key's own execute() reverts. Balance: an empty key is
// skipped, all keys empty answers 503 RELAYER_UNFUNDED.
import { createWalletClient, encodeFunctionData, http, keccak256, numberToHex, parseEther, parseEventLogs, toHex, type Abi, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missionEscrowAbi, operatorRegistryAbi, relayerExecutorAbi } from "../../abis/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { inject } from "./lane.ts";

const RELAYER_ROLE = keccak256(toHex("RELAYER_ROLE"));
const N = 12;
let chain: ReturnType<typeof chainEnv>;
let executor: Address;
let api: TestApi | undefined;
const keys = Array.from({ length: 4 }, () => generatePrivateKey());
const accounts = keys.map((k) => privateKeyToAccount(k));
const [k0, k1, k2, k3] = accounts as [PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount, PrivateKeyAccount];
const users: { account: PrivateKeyAccount; token: string }[] = [];
const lc = (a: string) => a.toLowerCase();

const rpc = (method: string, params: unknown[]) => chain.client.request({ method, params } as never) as Promise<unknown>;
const setBalance = (a: Address, wei: bigint) => rpc("anvil_setBalance", [a, numberToHex(wei)]);
/** The executor's admin is the deployer (anvil account 0); no API in this file sends from it. */
const admin = (fn: "grantRole" | "revokeRole", who: Address) =>
  chain.send(anvilAccount(0), executor, relayerExecutorAbi as Abi, fn, [RELAYER_ROLE, who]);
const hasRole = (who: Address) =>
  chain.client.readContract({ address: executor, abi: relayerExecutorAbi, functionName: "hasRole", args: [RELAYER_ROLE, who] });

async function startPool(list: PrivateKeyAccount[]) {
  await api?.stop();
  api = await startTestApi(
    {
      RELAYER_PRIVATE_KEYS: list.map((a) => keys[accounts.indexOf(a)]).join(","),
      REACTORS_ENABLED: "false",
      KEEPER_INTERVAL_MS: "0",
      RELAYER_BALANCE_EVERY_MS: "200",
    },
    { indexer: "shared" },
  );
}
const create = (u: { token: string }, n: string) =>
  call(api!.url, "POST", "/missions", {
    token: u.token,
    body: { title: `Pool ${n}`, description: "relayer key pool e2e", rewardAmount: "0.01", category: "delivery", expiresIn: 3600 },
  });

/** The senders and the MissionCreated posters of a set of answered creates. */
async function onChain(answers: { status: number; body: any }[]) {
  const out: { from: string; to: string; poster: string; nonce: number }[] = [];
  for (const a of answers) {
    const hash = a.body.data.transactionHash as Hex;
    const [tx, receipt] = await Promise.all([chain.client.getTransaction({ hash }), chain.client.getTransactionReceipt({ hash })]);
    const created = parseEventLogs({ abi: missionEscrowAbi, logs: receipt.logs, eventName: "MissionCreated" });
    expect(created, hash).toHaveLength(1);
    expect(lc(created[0]!.address)).toBe(lc(chain.c.MissionEscrow.address));
    out.push({ from: lc(tx.from), to: lc(tx.to!), poster: lc(created[0]!.args.poster), nonce: tx.nonce });
  }
  return out;
}
const sentBy = (rows: { from: string }[], a: PrivateKeyAccount) => rows.filter((r) => r.from === lc(a.address)).length;

beforeAll(async () => {
  chain = chainEnv();
  executor = chain.deployment.executor!;
  expect(executor, "the deployment has an executor").toBeTruthy();
  for (const a of accounts) await setBalance(a.address, parseEther("10"));
  for (const a of [k0, k1, k2]) await admin("grantRole", a.address);
  await startPool([k0, k1, k2]);
  // Users who authorise the service once: the operator they approve is the executor, not any key.
  for (let i = 0; i < N; i++) {
    const account = await chain.freshUser();
    await chain.send(account, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [executor, true]);
    users.push({ account, token: await signIn(api!.url, account) });
  }
}, 300_000);
afterAll(async () => {
  await api?.stop();
  for (const a of accounts) await setBalance(a.address, 0n).catch(() => {});
  for (const a of accounts) if (await hasRole(a.address).catch(() => false)) await admin("revokeRole", a.address).catch(() => {});
});

describe("relayer key pool", () => {
  it(`${N} concurrent creates spread over all 3 keys, 0 nonce errors, every mission its user's`, async () => {
    const nonces0 = await Promise.all([k0, k1, k2].map((a) => chain.client.getTransactionCount({ address: a.address })));
    const started = Date.now();
    const answers = await Promise.all(users.map((u, i) => create(u, `concurrent ${i}`)));
    const ms = Date.now() - started;
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    const rows = await onChain(answers);
    for (const [i, r] of rows.entries()) {
      expect(r.to, "sent to the executor").toBe(lc(executor));
      expect(r.poster, "the mission is its user's, whichever key sent it").toBe(lc(users[i]!.account.address));
      expect([k0, k1, k2].map((a) => lc(a.address))).toContain(r.from);
    }
    const counts = [k0, k1, k2].map((a) => sentBy(rows, a));
    for (const [i, n] of counts.entries()) expect(n, `key ${i} sent`).toBeGreaterThanOrEqual(1);
    // No nonce skipped or reused: each key's nonces are exactly the next ones.
    for (const [i, a] of [k0, k1, k2].entries()) {
      const used = rows.filter((r) => r.from === lc(a.address)).map((r) => r.nonce).sort((x, y) => x - y);
      expect(used).toEqual(Array.from({ length: counts[i]! }, (_, j) => nonces0[i]! + j));
      expect(await chain.client.getTransactionCount({ address: a.address })).toBe(nonces0[i]! + counts[i]!);
    }
    // The API reads the mission back as the user's.
    const got = await call(api!.url, "GET", `/missions/${answers[0]!.body.data.id}`);
    expect(got.status).toBe(200);
    expect(lc(got.body.data.poster.evmAddress)).toBe(lc(users[0]!.account.address));
    console.log(`pool: ${N} concurrent creates in ${ms} ms, per key ${counts.join("/")}`);
  });

  it("rotation: a new key granted, an old one revoked, the API restarted; users write without re-authorising", async () => {
    await admin("grantRole", k3.address);
    await admin("revokeRole", k2.address);
    expect(await hasRole(k2.address)).toBe(false);
    await startPool([k0, k1, k3]);
    const operatorNonces = await Promise.all(users.slice(0, 6).map((u) =>
      chain.client.readContract({ address: chain.c.OperatorRegistry.address, abi: operatorRegistryAbi, functionName: "nonces", args: [u.account.address] })));
    const answers = await Promise.all(users.slice(0, 6).map((u, i) => create(u, `after rotation ${i}`)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    const rows = await onChain(answers);
    expect(sentBy(rows, k2), "the revoked key sends nothing").toBe(0);
    expect(sentBy(rows, k3), "the new key sends").toBeGreaterThanOrEqual(1);
    for (const [i, r] of rows.entries()) expect(r.poster).toBe(lc(users[i]!.account.address));
    // Nobody re-authorised: the users' approvals and OperatorRegistry nonces are as they were.
    for (const [i, u] of users.slice(0, 6).entries()) {
      const [isOp, nonce] = await Promise.all([
        chain.client.readContract({ address: chain.c.OperatorRegistry.address, abi: operatorRegistryAbi, functionName: "isOperator", args: [u.account.address, executor] }),
        chain.client.readContract({ address: chain.c.OperatorRegistry.address, abi: operatorRegistryAbi, functionName: "nonces", args: [u.account.address] }),
      ]);
      expect(isOp).toBe(true);
      expect(nonce).toBe(operatorNonces[i]);
    }

    // The revoked key, acting on its own, is refused by the executor.
    const data = encodeFunctionData({
      abi: missionEscrowAbi, functionName: "createMission",
      args: [users[0]!.account.address, 10_000n, BigInt(Math.floor(Date.now() / 1000) + 3600), 0, keccak256(toHex("stolen"))],
    });
    const simulated = await chain.client
      .simulateContract({ account: k2, address: executor, abi: relayerExecutorAbi, functionName: "execute", args: [chain.c.MissionEscrow.address, data] })
      .then(() => null, (err: Error) => err);
    expect(simulated?.message).toMatch(/AccessControlUnauthorizedAccount/);
    const wallet = createWalletClient({ account: k2, chain: foundry, transport: http(inject("rpcUrl")) });
    const hash = await wallet.writeContract({ address: executor, abi: relayerExecutorAbi, functionName: "execute", args: [chain.c.MissionEscrow.address, data], gas: 300_000n });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status, "the revoked key's execute is mined and reverts").toBe("reverted");
    expect(parseEventLogs({ abi: missionEscrowAbi, logs: receipt.logs })).toHaveLength(0);
  });

  it("a key with no ETH is skipped (health degraded); all keys empty: 503 RELAYER_UNFUNDED; refunded: served", async () => {
    const health = async (ok: (b: any) => boolean) => {
      for (const end = Date.now() + 20_000; ; ) {
        const h = await call(api!.url, "GET", "/health");
        if (ok(h.body) || Date.now() > end) return h;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const keyIn = (b: any, a: PrivateKeyAccount) => (b.checks.relayer as any[]).find((k) => lc(k.address) === lc(a.address));
    try {
      await setBalance(k1.address, 0n);
      const h = await health((b) => keyIn(b, k1)?.empty === true);
      expect(h.body.status).toBe("degraded");
      expect(h.body.checks.relayer).toHaveLength(3);
      expect(keyIn(h.body, k1)).toMatchObject({ balanceWei: "0", empty: true, low: true });
      expect(keyIn(h.body, k0)).toMatchObject({ empty: false, low: false });
      const answers = await Promise.all(users.slice(0, 6).map((u, i) => create(u, `one key empty ${i}`)));
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
      const rows = await onChain(answers);
      expect(sentBy(rows, k1), "the empty key sends nothing").toBe(0);
      expect(sentBy(rows, k0) + sentBy(rows, k3)).toBe(6);

      for (const a of [k0, k3]) await setBalance(a.address, 0n);
      await health((b) => (b.checks.relayer as any[]).every((k) => k.empty));
      const nonces = await Promise.all([k0, k1, k3].map((a) => chain.client.getTransactionCount({ address: a.address, blockTag: "pending" })));
      const refused = await create(users[0]!, "all empty");
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body.error.code).toBe("RELAYER_UNFUNDED");
      for (const a of [k0, k1, k3]) expect(refused.body.error.message).toContain(a.address);
      expect(await Promise.all([k0, k1, k3].map((a) => chain.client.getTransactionCount({ address: a.address, blockTag: "pending" })))).toEqual(nonces);
    } finally {
      for (const a of [k0, k1, k3]) await setBalance(a.address, parseEther("10"));
    }
    await health((b) => b.status === "ok");
    const ok = await create(users[1]!, "refunded");
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});
