// Idempotency and the relayer, a reverted or dropped transaction: real anvil, Postgres,
// Ponder and API copies (in-process and a real child process killed with SIGKILL). Transactions are
// counted on chain: the relayer's (anvil account 0) nonce before and after.
// Background senders of the relayer key are switched off in these API copies (reactors, keeper), so
// the nonce counts only what the requests sent.
import pg from "pg";
import { createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from "viem";
import { foundry } from "viem/chains";
import { missionEscrowAbi } from "../../abis/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anvilAccount } from "../../script/lib/accounts.ts";
import { startApiProcess, type ApiProcess } from "../../script/bench/lib/stack.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

const QUIET = { REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0" };
const JWT_SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789"; // the one startTestApi uses
const relayer = anvilAccount(0).address;
const users = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => anvilAccount(i));
const tokens = new Map<string, string>();
const tok = (a: { address: Address }) => tokens.get(a.address)!;

let api: TestApi;
let api2: TestApi;
let db: pg.Pool;
const client = createPublicClient({ transport: http(inject("rpcUrl")) });
const rpc = (method: string, params: unknown[] = []) => client.request({ method, params } as never) as Promise<any>;
const relayerNonce = async () => BigInt(await client.getTransactionCount({ address: relayer, blockTag: "latest" }));
const mission = (n: number | string) => ({
  title: `Reliability ${n}`,
  description: "relayer reliability e2e",
  rewardAmount: "0.01",
  category: "delivery",
  expiresIn: 3600,
});
const create = (base: string, who: { address: Address }, n: number | string, key?: string) =>
  call(base, "POST", "/missions", { token: tok(who), body: mission(n), headers: key ? { "Idempotency-Key": key } : {} });
/** The relayer's transactions in anvil's mempool. */
async function pooled(): Promise<Hex[]> {
  const content = await rpc("txpool_content");
  const out: Hex[] = [];
  for (const part of ["pending", "queued"] as const) {
    for (const [from, byNonce] of Object.entries(content?.[part] ?? {})) {
      if (from.toLowerCase() !== relayer.toLowerCase()) continue;
      for (const tx of Object.values(byNonce as Record<string, { hash: Hex }>)) out.push(tx.hash);
    }
  }
  return out;
}
async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  api = await startTestApi(QUIET, { indexer: "shared" });
  // A second copy on the same database, indexer and relayer key.
  api2 = await startTestApi({ ...QUIET, INDEXER_URL: api.follows!.url, CHAIN_SCHEMA: api.server.env.CHAIN_SCHEMA });
  db = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  for (const u of users) tokens.set(u.address, await signIn(api.url, u));
});
afterAll(async () => {
  await rpc("evm_setAutomine", [true]).catch(() => {});
  await api2?.stop();
  await api?.stop();
  await db?.end();
});

describe("idempotency and the relayer", () => {
  it("20 concurrent requests with one Idempotency-Key send exactly 1 transaction", async () => {
    const before = await relayerNonce();
    const key = `same-key-${Date.now()}`;
    const res = await Promise.all(Array.from({ length: 20 }, (_, i) => create(i % 2 ? api2.url : api.url, users[0]!, "same", key)));
    const created = res.filter((r) => r.status === 201);
    const inUse = res.filter((r) => r.status === 409);
    expect(created.length, JSON.stringify(res.map((r) => r.status))).toBeGreaterThanOrEqual(1);
    expect(created.length + inUse.length).toBe(20);
    for (const r of inUse) expect(r.body.error.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    // More than one 201 only as replays of the same response.
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    expect((await relayerNonce()) - before).toBe(1n);
    const again = await create(api2.url, users[0]!, "same", key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data.id).toBe(created[0]!.body.data.id);
    expect((await relayerNonce()) - before).toBe(1n);
  });

  it("two API copies, one relayer key, 100 concurrent transactions: 0 nonce errors, 100 mined", async () => {
    const before = await relayerNonce();
    const t0 = performance.now();
    const res = await Promise.all(
      Array.from({ length: 100 }, (_, i) => create(i % 2 ? api2.url : api.url, users[i % users.length]!, `pair-${i}`)),
    );
    const seconds = (performance.now() - t0) / 1000;
    const bad = res.filter((r) => r.status !== 201);
    expect(bad.map((r) => JSON.stringify(r.body)).slice(0, 3)).toEqual([]);
    expect(new Set(res.map((r) => r.body.data.onChainId)).size).toBe(100);
    expect((await relayerNonce()) - before).toBe(100n);
    // Every one recorded in the outbox and marked mined (written in batches just after the receipt).
    const statuses = async () =>
      (await db.query(
        `SELECT status, count(*)::int AS n FROM api.relayer_outbox WHERE hash = ANY($1) GROUP BY status`,
        [res.map((r) => r.body.data.transactionHash)],
      )).rows;
    await until("the outbox to record 100 mined", async () => (await statuses()).find((r) => r.status === "mined" && r.n === 100), 5_000)
      .catch(() => undefined);
    expect(await statuses()).toEqual([{ status: "mined", n: 100 }]);
    console.log(`two copies: 100 creates (mined + indexed) in ${seconds.toFixed(2)} s = ${(100 / seconds).toFixed(1)} tx/s`);
  });

  it("kill -9 between broadcast and storing the response, retry with the key on another process: no second transaction", async () => {
    const env = {
      ...QUIET,
      DATABASE_URL: inject("databaseUrl"),
      RPC_URL: inject("rpcUrl"),
      DEPLOYMENT_FILE: inject("deploymentFile"),
      CHAIN_ID: String(inject("deployment").chainId),
      INDEXER_URL: api.follows!.url,
      CHAIN_SCHEMA: api.server.env.CHAIN_SCHEMA,
      JWT_SECRET,
      LOG_LEVEL: "silent",
      RATE_LIMIT_USER_PER_MIN: "100000",
    };
    const key = `crash-${Date.now()}`;
    const poster = users[2]!;
    const before = await relayerNonce();
    // Two real API processes on one database: one with the crash hook, one to take over after it
    // (started together: a cold start is the slow part of this test).
    let [child, survivor] = await Promise.all([
      startApiProcess({ ...env, RELAYER_CRASH_AFTER_BROADCAST: "true" }, { pin: false }),
      startApiProcess(env, { pin: false }),
    ]) as [ApiProcess | undefined, ApiProcess];
    try {
      const first = await create(child!.url, poster, "crash", key).catch((err: unknown) => err as Error);
      expect(first).toBeInstanceOf(Error); // the connection died with the process
      const exit = await child!.process.exited;
      expect(exit.signal).toBe("SIGKILL");
      child = undefined;
      expect((await relayerNonce()) - before).toBe(1n); // it was broadcast (and mined: automine)
      const { rows } = await db.query(`SELECT hash, status FROM api.relayer_outbox WHERE key = $1`, [key]);
      expect(rows).toHaveLength(1);
      const sentHash = rows[0].hash as Hex;

      // The dead process's claim becomes stale once its heartbeat stops (5 s): 409 until then.
      const retry = await until("the retry to be served", async () => {
        const r = await create(survivor.url, poster, "crash", key);
        return r.status === 409 && r.body.error.code === "IDEMPOTENCY_KEY_IN_USE" ? undefined : r;
      }, 30_000);
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.body.data.transactionHash).toBe(sentHash);
      expect(retry.body.data.title).toBe("Reliability crash");
      expect((await relayerNonce()) - before).toBe(1n);
      const replay = await create(api.url, poster, "crash", key);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body.data.id).toBe(retry.body.data.id);
      // The mission is readable with its details (the first attempt's details row got its on-chain id).
      const got = await call(api.url, "GET", `/missions/${retry.body.data.id}`);
      expect(got.body.data.title).toBe("Reliability crash");
      expect((await relayerNonce()) - before).toBe(1n);
    } finally {
      await Promise.all([child?.stop(), survivor.stop()]);
    }
  }, 90_000);
});

describe("reverted and dropped transactions", () => {
  it("a tx that reverts on-chain (a race another tx won) gives a clear error, and a retry is safe", async () => {
    const poster = users[3]!;
    const performer = users[4]!;
    const c = await create(api.url, poster, "race");
    expect(c.status).toBe(201);
    const { id, onChainId } = c.body.data as { id: string; onChainId: string };
    const before = await relayerNonce();
    const key = `race-${Date.now()}`;
    const accept = (k?: string) =>
      call(api.url, "POST", `/missions/${id}/accept`, { token: tok(performer), headers: k ? { "Idempotency-Key": k } : {} });
    await rpc("evm_setAutomine", [false]);
    let lost: { status: number; body: any };
    try {
      // The accept passes the pre-checks and the simulation (the mission is Open) and is broadcast...
      const racing = accept(key);
      await until("the accept in the mempool", async () => (await pooled()).length >= 1);
      // ...but the poster's own cancel (a higher tip: ordered first in the block) wins the race.
      const escrow = inject("deployment").contracts.MissionEscrow.address;
      const wallet = createWalletClient({ account: poster, chain: foundry, transport: http(inject("rpcUrl")) });
      await wallet.writeContract({
        address: escrow, abi: missionEscrowAbi as Abi, functionName: "cancelMission", args: [BigInt(onChainId)],
        gas: 300_000n, maxPriorityFeePerGas: 50_000_000_000n, maxFeePerGas: 100_000_000_000n,
      });
      await rpc("evm_mine");
      lost = await racing;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    // The relayer's tx was mined and reverted: one nonce used, a clear code (replayed on the block's state).
    expect((await relayerNonce()) - before).toBe(1n);
    expect(lost.status, JSON.stringify(lost.body)).toBe(409);
    expect(lost.body.error.code).toBe("MISSION_NOT_OPEN");
    // Retrying is safe: the same key replays the answer, a new key is refused before any tx.
    const same = await accept(key);
    expect(same.status).toBe(409);
    expect(same.body.error.code).toBe("MISSION_NOT_OPEN");
    const fresh = await accept();
    expect(fresh.status).toBe(409);
    expect(fresh.body.error.code).toBe("MISSION_NOT_OPEN");
    expect((await relayerNonce()) - before).toBe(1n);
  });

  it("a dropped tx is rebroadcast (same bytes): one mission, one nonce", async () => {
    const before = await relayerNonce();
    await rpc("evm_setAutomine", [false]);
    let res: { status: number; body: any };
    let dropped: Hex;
    try {
      const pending = create(api.url, users[6]!, "dropped", `drop-${Date.now()}`);
      [dropped] = await until("the create in the mempool", async () => {
        const p = await pooled();
        return p.length ? p : undefined;
      });
      await rpc("anvil_dropTransaction", [dropped]);
      expect(await pooled()).toEqual([]);
      // The relayer's watchdog sees its tx gone from the mempool and the nonce unused: rebroadcast.
      await until("the rebroadcast", async () => (await pooled()).includes(dropped), 15_000);
      await rpc("evm_mine");
      res = await pending;
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.transactionHash).toBe(dropped);
    expect((await relayerNonce()) - before).toBe(1n);
  });
});
