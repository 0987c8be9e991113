// The relayer's grouped broadcast on an automining anvil (docs/decisions.md "Writes at the floor: the
// relayer under many writers (session 26)"): with ONE relayer key, the sends that one nonce allocation
// releases, and those that arrive while the indexer is still on a block this key wrote (the hold,
// `HOLD_MS` in api/services/relayer/key.ts), go out as one JSON-RPC batch (`broadcastTogether` in
// send.ts), which anvil takes into few blocks. Without the grouping every broadcast is a block of its
// own. Here the file's own indexer is paused (SIGSTOP) while N concurrent creates run, so every
// broadcast after the first meets an indexer behind the key's block and is held: the creates land in a
// handful of blocks (measured: 6 for 20 creates). Without the grouping (measured by disabling it: 16
// blocks with the indexer paused, 14 with it running) the test fails. Through the real API,
// PostgreSQL and Ponder; on an idle indexer nothing is held (a lone write is never delayed).
import { numberToHex, parseEther, keccak256, toHex, type Abi, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi, relayerExecutorAbi } from "../../abis/index.ts";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { waitFor } from "../../script/lib/ports.ts";

const RELAYER_ROLE = keccak256(toHex("RELAYER_ROLE"));
const N = 20;
let chain: ReturnType<typeof chainEnv>;
let executor: Address;
let api: TestApi | undefined;
const key = generatePrivateKey();
const relayer = privateKeyToAccount(key);
const users: { token: string }[] = [];

const rpc = (method: string, params: unknown[]) => chain.client.request({ method, params } as never) as Promise<unknown>;
const admin = (fn: "grantRole" | "revokeRole", who: Address) =>
  chain.send(anvilAccount(0), executor, relayerExecutorAbi as Abi, fn, [RELAYER_ROLE, who]);
const create = (token: string, n: string) =>
  call(api!.url, "POST", "/missions", {
    token,
    body: { title: `Grouping ${n}`, description: "grouped broadcast e2e", rewardAmount: "0.01", category: "delivery", expiresIn: 3600 },
  });

beforeAll(async () => {
  chain = chainEnv();
  executor = chain.deployment.executor!;
  expect(executor, "the deployment has an executor").toBeTruthy();
  expect(await rpc("anvil_getAutomine", []), "this file is about an automining node").toBe(true);
  await rpc("anvil_setBalance", [relayer.address, numberToHex(parseEther("10"))]);
  await admin("grantRole", relayer.address);
  api = await startTestApi(
    { RELAYER_PRIVATE_KEYS: key, REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", INDEXER_WAIT_MS: "10000" },
    { indexer: true },
  );
  for (let i = 0; i < N; i++) {
    const account = await chain.freshUser();
    await chain.send(account, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [executor, true]);
    users.push({ token: await signIn(api.url, account) });
  }
}, 300_000);
afterAll(async () => {
  await api?.stop();
  await admin("revokeRole", relayer.address).catch(() => {});
  await rpc("anvil_setBalance", [relayer.address, "0x0"]).catch(() => {});
});

describe("relayer grouped broadcast (automine, one key)", () => {
  it(`${N} concurrent creates land in clearly fewer blocks than creates, nonces contiguous`, async () => {
    // One create first: the key's first send of the process reads the chain's nonce (not measured).
    const first = await create(users[0]!.token, "warm-up");
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const nonce0 = await chain.client.getTransactionCount({ address: relayer.address });

    // The indexer paused for the burst, then resumed: every create answers once its block is indexed.
    const ponder = api!.indexer!.pid;
    process.kill(ponder, "SIGSTOP");
    let answers: Awaited<ReturnType<typeof create>>[];
    try {
      const all = Promise.all(users.map((u, i) => create(u.token, `concurrent ${i}`)));
      // Paused until every create of the burst is mined (not a fixed time: the burst's pre-checks may
      // take longer on a loaded machine, and a burst that ends after the pause meets a live indexer,
      // which holds nothing), at most 20 s.
      await waitFor("the burst to be mined", async () => (await chain.client.getTransactionCount({ address: relayer.address })) >= nonce0 + N, { timeoutMs: 20_000, intervalMs: 50 }).catch(() => {});
      process.kill(ponder, "SIGCONT");
      answers = await all;
    } finally {
      process.kill(ponder, "SIGCONT");
    }
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    const txs = await Promise.all(answers.map(async (a) => {
      const hash = a.body.data.transactionHash as Hex;
      const [tx, receipt] = await Promise.all([chain.client.getTransaction({ hash }), chain.client.getTransactionReceipt({ hash })]);
      expect(receipt.status).toBe("success");
      return { from: tx.from.toLowerCase(), nonce: tx.nonce, block: receipt.blockNumber };
    }));
    for (const t of txs) expect(t.from, "every create sent by the one key").toBe(relayer.address.toLowerCase());
    expect(txs.map((t) => t.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => nonce0 + i));

    const blocks = new Set(txs.map((t) => t.block));
    console.log(`grouping: ${N} concurrent creates in ${blocks.size} blocks (${(N / blocks.size).toFixed(1)} txs a block)`);
    // Grouped: the first broadcast alone, then a batch (one or two blocks) per hold of at most HOLD_MS.
    expect(blocks.size).toBeLessThanOrEqual(N / 2);
  }, 180_000);
});
