// Stuck-transaction replacement on a real anvil with automine off and blocks mined by hand. The
// relayer's first broadcast is made unmineable by holding the base fee above its maxFeePerGas
// (anvil_setNextBlockBaseFeePerGas before every block); after RELAYER_REPLACE_AFTER_BLOCKS blocks it
// is re-sent with the same nonce and fees >= +12.5 %, never above RELAYER_MAX_FEE_GWEI. Automine and
// the base fee are restored afterwards (the chain is shared with the other files).
import pg from "pg";
import { createPublicClient, http, numberToHex, parseGwei, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

const client = createPublicClient({ transport: http(inject("rpcUrl")) });
const rpc = (method: string, params: unknown[] = []) => client.request({ method, params } as never) as Promise<any>;
const relayer = anvilAccount(0).address;
const user = anvilAccount(6);
const CAP_GWEI = "8";
const CAP = parseGwei(CAP_GWEI);
let api: TestApi;
let token: string;
let db: pg.Pool;
let baseBefore: bigint;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setBaseFee(wei: bigint) {
  await rpc("anvil_setNextBlockBaseFeePerGas", [numberToHex(wei)]);
  await rpc("evm_mine");
}
const create = (n: string) =>
  call(api.url, "POST", "/missions", {
    token,
    body: { title: `Replacement ${n}`, description: "relayer replacement e2e", rewardAmount: "0.01", category: "delivery", expiresIn: 3600 },
  });
/** The relayer's transactions waiting in anvil's pool. */
async function pooled(): Promise<{ hash: Hex; nonce: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }[]> {
  const content = await rpc("txpool_content");
  const mine = Object.entries(content?.pending ?? {}).find(([a]) => a.toLowerCase() === relayer.toLowerCase())?.[1] ?? {};
  return Object.values(mine as Record<string, any>).map((t) => ({
    hash: t.hash, nonce: BigInt(t.nonce), maxFeePerGas: BigInt(t.maxFeePerGas), maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas),
  }));
}
async function until<T>(what: string, get: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  for (const end = Date.now() + ms; ; ) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
/** The request's broadcast in the pool (failing with its answer if it answers first). */
async function firstBroadcast(pending: Promise<{ status: number; body: any }>) {
  let answer: { status: number; body: any } | undefined;
  void pending.then((r) => (answer = r), () => {});
  return until("the first broadcast", async () => {
    if (answer) throw new Error(`answered before any broadcast: ${answer.status} ${JSON.stringify(answer.body)}`);
    return (await pooled())[0];
  });
}
/** Every recorded broadcast of the relayer's tx with this nonce, oldest first. */
async function broadcasts(nonce: bigint) {
  const { rows } = await db.query(
    `SELECT b.hash, b.max_fee_per_gas::text AS max_fee, b.max_priority_fee_per_gas::text AS tip
     FROM api.relayer_broadcasts b JOIN api.relayer_outbox o ON o.id = b.outbox_id
     WHERE o.chain_id = 31337 AND o.address = $1 AND o.nonce = $2 ORDER BY b.sent_at, b.id`,
    [relayer.toLowerCase(), nonce.toString()],
  );
  return rows.map((r) => ({ hash: r.hash as Hex, maxFeePerGas: BigInt(r.max_fee), maxPriorityFeePerGas: BigInt(r.tip) }));
}
/** Mines one block at `base` per step until `done` resolves; the response. */
async function mineWhile<T>(pending: Promise<T>, base: () => bigint, ms = 40_000): Promise<T> {
  let settled = false;
  void pending.finally(() => (settled = true)).catch(() => {});
  for (const end = Date.now() + ms; !settled && Date.now() < end; ) {
    await setBaseFee(base());
    await sleep(250);
  }
  return pending;
}

beforeAll(async () => {
  baseBefore = (await client.getBlock()).baseFeePerGas ?? 0n;
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  api = await startTestApi(
    {
      REACTORS_ENABLED: "false", DISPUTE_KEEPER_INTERVAL_MS: "0",
      RELAYER_REPLACE_AFTER_BLOCKS: "2", RELAYER_MAX_FEE_GWEI: CAP_GWEI, RELAYER_FEE_WAIT_MS: "30000",
    },
    { indexer: "shared" },
  );
  token = await signIn(api.url, user);
}, 120_000);
afterAll(async () => {
  await rpc("evm_setAutomine", [true]).catch(() => {});
  await setBaseFee(baseBefore).catch(() => {});
  await db?.end();
  await api?.stop();
});

describe("stuck transaction replacement", () => {
  let lastNonce: bigint;

  it("a tx left unmined is replaced (same nonce, fees +12.5 %); the response carries the mined replacement", async () => {
    await setBaseFee(parseGwei("1"));
    await sleep(2_500); // the relayer's fee reads are cached for 2 s: let it see the new base fee
    await rpc("evm_setAutomine", [false]);
    try {
      const pending = create("stuck");
      const first = await firstBroadcast(pending);
      const hold = (first.maxFeePerGas * 105n) / 100n; // above its maxFeePerGas: it cannot be mined
      const res = await mineWhile(pending, () => hold);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const hash = res.body.data.transactionHash as Hex;
      expect(hash).not.toBe(first.hash);
      const tx = await client.getTransaction({ hash });
      expect(BigInt(tx.nonce)).toBe(first.nonce);
      expect((await client.getTransactionReceipt({ hash })).status).toBe("success");

      const sent = await broadcasts(first.nonce);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(sent[0]!.hash).toBe(first.hash);
      expect(sent.map((b) => b.hash)).toContain(hash);
      for (let i = 1; i < sent.length; i++) {
        expect(sent[i]!.maxFeePerGas * 8n).toBeGreaterThanOrEqual(sent[i - 1]!.maxFeePerGas * 9n);
        expect(sent[i]!.maxPriorityFeePerGas * 8n).toBeGreaterThanOrEqual(sent[i - 1]!.maxPriorityFeePerGas * 9n);
        expect(sent[i]!.maxFeePerGas <= CAP).toBe(true);
      }
      const { rows } = await db.query(`SELECT hash, status FROM api.relayer_outbox WHERE chain_id = 31337 AND address = $1 AND nonce = $2 AND status <> 'dropped'`, [relayer.toLowerCase(), first.nonce.toString()]);
      await until("the outbox row marked mined", async () => {
        const r = await db.query(`SELECT hash, status FROM api.relayer_outbox WHERE chain_id = 31337 AND address = $1 AND nonce = $2`, [relayer.toLowerCase(), first.nonce.toString()]);
        return r.rows[0]?.status === "mined" ? r.rows : undefined;
      }).then((r) => expect(r).toEqual([{ hash, status: "mined" }]));
      expect(rows.length).toBe(1);
      const metrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
      expect(Number(/^relayer_replacements_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
      lastNonce = first.nonce;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  }, 80_000);

  it("at the cap: replaced up to the cap, never above it, then it keeps waiting; the next tx takes nonce+1", async () => {
    await setBaseFee(parseGwei("4"));
    await sleep(2_500); // the relayer's fee reads are cached for 2 s: let it see the new base fee
    await rpc("evm_setAutomine", [false]);
    let stuckNonce: bigint;
    try {
      const pending = create("capped");
      const first = await firstBroadcast(pending);
      stuckNonce = first.nonce;
      expect(first.nonce).toBe(lastNonce + 1n);
      expect(first.maxFeePerGas * 9n <= CAP * 8n).toBe(true); // room for one bump up to the cap
      // Held above the cap: the replacement at the cap cannot be mined either.
      const hold = CAP + parseGwei("1");
      let mined = 0;
      const atCap = await until("a replacement at the cap", async () => {
        await setBaseFee(hold);
        mined++;
        const b = await broadcasts(first.nonce);
        return b.length >= 2 ? b : undefined;
      });
      expect(atCap[1]!.maxFeePerGas).toBe(CAP);
      expect(atCap[1]!.maxFeePerGas * 8n).toBeGreaterThanOrEqual(atCap[0]!.maxFeePerGas * 9n);
      for (let i = 0; i < 6; i++) {
        await setBaseFee(hold);
        await sleep(250);
      }
      expect((await broadcasts(first.nonce)).length).toBe(2); // no bump past the cap
      // anvil drops a tx the base fee has passed from its pool; whatever is there stays within the cap.
      for (const t of await pooled()) expect(t.maxFeePerGas <= CAP).toBe(true);
      expect(mined).toBeGreaterThan(0);

      const res = await mineWhile(pending, () => parseGwei("1"));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.transactionHash).toBe(atCap[1]!.hash);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    const next = await create("after");
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    const tx = await client.getTransaction({ hash: next.body.data.transactionHash });
    expect(BigInt(tx.nonce)).toBe(stuckNonce + 1n); // no gap, no reuse
    expect(BigInt(await client.getTransactionCount({ address: relayer, blockTag: "latest" }))).toBe(stuckNonce + 2n);
  }, 80_000);

  it("a broadcast the node refuses (fee cap below the next block's base fee) is replaced like a stuck one: 201, same nonce, no 500", async () => {
    await setBaseFee(parseGwei("1"));
    await sleep(2_500); // the relayer's fee reads are cached for 2 s: let it see the new base fee
    await rpc("evm_setAutomine", [false]);
    const spike = parseGwei("5"); // above what the relayer signs for a 1 gwei base fee, below the cap
    await rpc("anvil_setNextBlockBaseFeePerGas", [numberToHex(spike)]);
    const before = await db.query(`SELECT coalesce(max(id), 0)::text AS id FROM api.relayer_outbox`);
    try {
      const pending = create("refused");
      const first = await until("the recorded (refused) broadcast", async () => {
        const r = await db.query(
          `SELECT hash, nonce::text AS nonce FROM api.relayer_outbox WHERE address = $1 AND id > $2 ORDER BY id LIMIT 1`,
          [relayer.toLowerCase(), before.rows[0].id]);
        return r.rows[0] as { hash: Hex; nonce: string } | undefined;
      });
      await sleep(300);
      expect(await pooled(), "anvil refused it: nothing of the relayer's in the pool").toEqual([]);
      const res = await mineWhile(pending, () => spike);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const hash = res.body.data.transactionHash as Hex;
      expect(hash).not.toBe(first.hash);
      const tx = await client.getTransaction({ hash });
      expect(BigInt(tx.nonce)).toBe(BigInt(first.nonce)); // the refused nonce, not a new one: no gap
      expect(tx.maxFeePerGas! >= spike && tx.maxFeePerGas! <= CAP).toBe(true);
      expect((await broadcasts(BigInt(first.nonce))).map((b) => b.hash)).toEqual(expect.arrayContaining([first.hash, hash]));
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  }, 80_000);
});
