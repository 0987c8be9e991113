// The relayer on a real network's terms, on a real anvil. The fee cap (RELAYER_MAX_FEE_GWEI): a write
// while the network asks more than the cap waits (bounded), then answers 503 FEE_CAP_EXCEEDED with
// nothing signed or sent; once the fee falls (anvil_setNextBlockBaseFeePerGas), the write goes through.
// The key's balance (anvil_setBalance): low -> /health degraded; empty -> 503 RELAYER_UNFUNDED.
// Base fee and balance are restored afterwards (the chain is shared with the other files).
import { createPublicClient, http, numberToHex, parseEther, parseGwei, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

const client = createPublicClient({ transport: http(inject("rpcUrl")) });
const rpc = (method: string, params: unknown[] = []) => client.request({ method, params } as never) as Promise<any>;
const relayer = anvilAccount(0).address;
const user = anvilAccount(6);
const CAP_GWEI = "50";
let api: TestApi;
let token: string;
let baseBefore: bigint;

const relayerNonce = async () => BigInt(await client.getTransactionCount({ address: relayer, blockTag: "pending" }));
async function setBaseFee(wei: bigint) {
  await rpc("anvil_setNextBlockBaseFeePerGas", [numberToHex(wei)]);
  await rpc("evm_mine");
}
const create = (n: string) =>
  call(api.url, "POST", "/missions", {
    token,
    body: { title: `Fee cap ${n}`, description: "relayer fee cap e2e", rewardAmount: "0.01", category: "delivery", expiresIn: 3600 },
  });

beforeAll(async () => {
  baseBefore = (await client.getBlock()).baseFeePerGas ?? 0n;
  api = await startTestApi(
    { REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", RELAYER_MAX_FEE_GWEI: CAP_GWEI, RELAYER_FEE_WAIT_MS: "3000" },
    { indexer: "shared" },
  );
  token = await signIn(api.url, user);
}, 120_000);
afterAll(async () => {
  await setBaseFee(baseBefore).catch(() => {});
  await api?.stop();
});

describe("relayer fee cap", () => {
  it("above the cap: waits, then 503 FEE_CAP_EXCEEDED naming the fee and the cap, nothing sent", async () => {
    await setBaseFee(parseGwei("120"));
    const before = await relayerNonce();
    const started = Date.now();
    const res = await create("refused");
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body.error.code).toBe("FEE_CAP_EXCEEDED");
    expect(res.body.error.message).toMatch(/base 120 gwei/);
    expect(res.body.error.message).toContain(`cap of ${CAP_GWEI} gwei`);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900); // it waited for the fee to fall first
    expect(await relayerNonce()).toBe(before);
    const pool = await rpc("txpool_content");
    expect(Object.keys(pool?.pending ?? {}).map((a) => a.toLowerCase())).not.toContain(relayer.toLowerCase());
  }, 60_000);

  it("a write waiting above the cap goes through once the fee falls, at a fee within the cap", async () => {
    await setBaseFee(parseGwei("120"));
    const before = await relayerNonce();
    const pending = create("after the fall");
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await relayerNonce()).toBe(before); // still waiting: nothing signed
    await setBaseFee(parseGwei("1"));
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const hash = res.body.data.transactionHash as Hex;
    const tx = await client.getTransaction({ hash });
    expect(tx.from.toLowerCase()).toBe(relayer.toLowerCase() as Address);
    expect(tx.maxFeePerGas! <= parseGwei(CAP_GWEI)).toBe(true);
  }, 60_000);
});

describe("relayer balance", () => {
  it("low: /health degraded naming the key, gauge set; empty: 503 RELAYER_UNFUNDED, nothing sent; refunded: served", async () => {
    const original = await client.getBalance({ address: relayer });
    const keyOf = (h: { body: any }) =>
      (h.body.checks.relayer as { address: string; balanceWei: string; low: boolean; empty: boolean }[]).find(
        (k) => k.address.toLowerCase() === relayer.toLowerCase(),
      );
    // /health reads the balance but answers with the last one read after 1 s: poll on a loaded machine.
    const healthUntil = async (ok: (h: { body: any }) => boolean) => {
      for (const end = Date.now() + 20_000; ; ) {
        const h = await call(api.url, "GET", "/health");
        if (ok(h) || Date.now() > end) return h;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    try {
      await rpc("anvil_setBalance", [relayer, numberToHex(parseEther("0.01"))]); // under the 0.05 ETH default
      const low = await healthUntil((h) => keyOf(h)?.low === true);
      expect(low.status, JSON.stringify(low.body)).toBe(200);
      expect(low.body.status).toBe("degraded");
      expect(keyOf(low)).toMatchObject({ balanceWei: parseEther("0.01").toString(), low: true, empty: false });
      const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(new RegExp(`relayer_balance_wei\\{address="${relayer}"\\} 10000000000000000`));

      await rpc("anvil_setBalance", [relayer, "0x0"]);
      const empty = await healthUntil((h) => keyOf(h)?.empty === true);
      expect(keyOf(empty)).toMatchObject({ balanceWei: "0", low: true, empty: true });
      const before = await relayerNonce();
      const res = await create("unfunded");
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error.code).toBe("RELAYER_UNFUNDED");
      expect(res.body.error.message).toContain(relayer);
      expect(await relayerNonce()).toBe(before);
    } finally {
      await rpc("anvil_setBalance", [relayer, numberToHex(original)]);
    }
    const ok = await create("refunded");
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect((await healthUntil((h) => h.body.status === "ok")).body.status).toBe("ok");
  }, 60_000);
});
