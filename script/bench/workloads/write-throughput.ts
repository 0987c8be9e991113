// B6: write throughput. 50 concurrent writers create missions through the API (each request returns
// after mining and indexing) vs raw viem sending the same createMission (through the executor, as the
// relayer does) from the SAME keys, each key with viem's own nonce manager, 50 concurrent async
// senders each waiting for its receipt. Measured on an automining anvil and on 2-second blocks
// (`--block-time 2`), with 1, 2 and 4 relayer keys (RELAYER_PRIVATE_KEYS; key 0 is anvil's account 0,
// the deployment's relayer; the others are granted RELAYER_ROLE at deploy and funded with
// anvil_setBalance). One stack per chain mode; the API restarts per key count; raw viem runs right
// after the API on the same chain, so both sides meet the same machine and the same chain state.
//
// Iterating: B6_KEYS=1,4  B6_MODES=automine|blocks  B6_CREATES=500 (per side and key count).
import { randomBytes } from "node:crypto";
import os from "node:os";
import { createPublicClient, createWalletClient, http, keccak256, numberToHex, parseEther, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { anvilAccount } from "../../lib/accounts.ts";
import { rawCreateCall } from "../lib/raw-create.ts";
import { signIn, startBenchStack, type BenchStack } from "../lib/stack.ts";
import { machineCpuMicros, postgresCpuMicros, postmasterPid, processCpuMicros } from "../lib/proc-cpu.ts";
import { ms, percentile, rate } from "../lib/stats.ts";
import type { BenchContext, BenchRow, Workload } from "../types.ts";

const NONCE_ERROR = /nonce|replacement transaction underpriced|already known/i;
/** anvil's account 0 (the deployment's relayer): a public development key, chain 31337 only. */
const ANVIL_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as Hex;
/** The pool's other keys: fixed, derived from a label (bench only; funded on the bench's anvil). */
const POOL_KEYS: Hex[] = [ANVIL_KEY_0, ...[1, 2, 3].map((i) => keccak256(toHex(`bench B6 relayer key ${i}`)))];

interface Mode {
  name: "automine" | "blocks";
  label: string;
  blockTime?: number;
  creates: number;
}

/** CPU time (µs) of each process of the stack; what one create costs each of them, whatever else runs. */
type Procs = Record<string, () => number>;

/** `writers` async loops share `total` jobs; returns elapsed ms, per-job latencies, errors and CPU. */
async function closedLoop(total: number, writers: number, job: (i: number) => Promise<void>, procs: Procs = {}) {
  let next = 0;
  const latencies: number[] = [];
  const errors: string[] = [];
  const t0 = performance.now();
  const cpu0 = machineCpuMicros();
  const proc0 = Object.fromEntries(Object.entries(procs).map(([k, f]) => [k, f()]));
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < total; i = next++) {
        const s = performance.now();
        try {
          await job(i);
          latencies.push(performance.now() - s);
        } catch (err) {
          errors.push(err instanceof Error ? err.message.split("\n")[0]! : String(err));
        }
      }
    }),
  );
  const procMicros = Object.fromEntries(Object.entries(procs).map(([k, f]) => [k, f() - proc0[k]!]));
  return { elapsedMs: performance.now() - t0, latencies, errors, cpuMicros: machineCpuMicros() - cpu0, procMicros };
}
type Loop = Awaited<ReturnType<typeof closedLoop>> & { blocks: number };

const list = (v: string | undefined) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : undefined);

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const writers = ctx.smoke ? 10 : 50;
  const keyCounts = (list(process.env.B6_KEYS) ?? (ctx.smoke ? ["1", "2"] : ["1", "2", "4"])).map(Number);
  if (keyCounts.some((k) => !Number.isInteger(k) || k < 1 || k > POOL_KEYS.length)) throw new Error(`B6_KEYS: 1..${POOL_KEYS.length}`);
  const sized = (n: number) => (ctx.smoke ? 30 : Number(process.env.B6_CREATES ?? n));
  const modes: Mode[] = [
    { name: "automine" as const, label: "automine", creates: sized(2_000) },
    { name: "blocks" as const, label: "2-s blocks", blockTime: 2, creates: sized(1_000) },
  ].filter((m) => !process.env.B6_MODES || list(process.env.B6_MODES)!.includes(m.name));
  const rows: BenchRow[] = [];
  for (const mode of modes) rows.push(...(await runMode(ctx, mode, keyCounts, writers)));
  return rows;
}

async function runMode(ctx: BenchContext, mode: Mode, keyCounts: number[], writers: number): Promise<BenchRow[]> {
  const poolAccounts = POOL_KEYS.map((k) => privateKeyToAccount(k));
  const stack = await startBenchStack(ctx, {
    api: false,
    blockTime: mode.blockTime,
    deployEnv: { RELAYER_ADDRESSES: poolAccounts.map((a) => a.address).join(",") },
  });
  const rows: BenchRow[] = [];
  try {
    const client = createPublicClient({ chain: foundry, transport: http(stack.rpcUrl), pollingInterval: 20 });
    for (const a of poolAccounts.slice(1)) {
      await client.request({ method: "anvil_setBalance", params: [a.address, numberToHex(parseEther("10000"))] } as never);
    }
    const users = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => anvilAccount(i));
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    const head = () => client.getBlockNumber({ cacheTime: 0 });
    for (const k of keyCounts) {
      const keys = POOL_KEYS.slice(0, k);
      ctx.log(`B6 ${mode.label}, ${k} key(s): API, ${mode.creates} creates by ${writers} writers`);
      const api = await apiSide(stack, keys, users, mode.creates, writers, head);
      ctx.log(`B6 ${mode.label}, ${k} key(s): raw viem, ${mode.creates} creates by ${writers} senders`);
      const raw = await rawSide(stack, keys, users, expiresAt, mode.creates, writers, head);
      rows.push(row(ctx, mode, k, writers, api, raw));
    }
  } finally {
    await stack.stop();
  }
  return rows;
}

async function apiSide(stack: BenchStack, keys: Hex[], users: ReturnType<typeof anvilAccount>[], total: number, writers: number, head: () => Promise<bigint>): Promise<Loop> {
  const api = await stack.startApi({ RELAYER_PRIVATE_KEYS: keys.join(",") });
  try {
    const tokens = await Promise.all(users.map((u) => signIn(api.url, u)));
    const body = (i: number) => JSON.stringify({
      title: `Bench ${i}`, description: "B6", rewardAmount: "0.01", category: "delivery", expiresIn: 86_400,
    });
    const job = async (i: number) => {
      const res = await fetch(`${api.url}/missions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[i % users.length]}`, "idempotency-key": randomBytes(12).toString("hex") },
        body: body(i),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${res.status} ${text.slice(0, 200)}`);
    };
    // Warm-up (connections, the executor's allowlist, each key's first nonce read): concurrent, so on
    // timed blocks it costs one block.
    await Promise.all(Array.from({ length: 2 * keys.length + 3 }, (_, i) => job(i)));
    const before = await head();
    const loop = await closedLoop(total, writers, job, await stackProcs(stack, api.pid));
    return { ...loop, blocks: Number((await head()) - before) };
  } finally {
    await api.stop();
  }
}

async function rawSide(
  stack: BenchStack, keys: Hex[], users: ReturnType<typeof anvilAccount>[], expiresAt: bigint, total: number, writers: number,
  head: () => Promise<bigint>,
): Promise<Loop> {
  // Nonces: one counter per key, read once from the pending count (the API used the same keys just
  // before) and taken in order, with no RPC call a send. viem's createNonceManager({ source: jsonRpc() })
  // was used before: its cached result and its stored last nonce are written by concurrent consumers
  // in any order, and under 50 senders it left a nonce gap now and then (13-17 sends of 800 queued
  // behind it until their receipts timed out, 4 tx/s): a baseline must not stall on its own bookkeeping.
  const client = createPublicClient({ chain: foundry, transport: http(stack.rpcUrl), pollingInterval: 20 });
  const accounts = keys.map((key) => privateKeyToAccount(key));
  const nextNonce = await Promise.all(accounts.map((a) => client.getTransactionCount({ address: a.address, blockTag: "pending" })));
  const wallets = accounts.map((account) => createWalletClient({ account, chain: foundry, transport: http(stack.rpcUrl) }));
  const job = async (i: number) => {
    const k = i % wallets.length;
    const hash = await wallets[k]!.writeContract({
      nonce: nextNonce[k]!++,
      ...rawCreateCall(stack.deployment, [users[i % users.length]!.address, 10_000n, expiresAt, 0, `0x${randomBytes(32).toString("hex")}` as Hex]),
    });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error("reverted");
  };
  await Promise.all(Array.from({ length: 2 * keys.length + 3 }, (_, i) => job(i)));
  const before = await head();
  const loop = await closedLoop(total, writers, job, await stackProcs(stack, process.pid));
  return { ...loop, blocks: Number((await head()) - before) };
}

/** The processes a create costs CPU in: the sender (the API, or this driver for raw viem), Ponder, anvil, PostgreSQL. */
async function stackProcs(stack: BenchStack, senderPid: number): Promise<Procs> {
  const postmaster = await postmasterPid(stack.databaseUrl);
  return {
    sender: () => processCpuMicros(senderPid),
    ponder: () => processCpuMicros(stack.indexerPid),
    anvil: () => processCpuMicros(stack.anvilPid),
    ...(postmaster ? { postgres: () => postgresCpuMicros(postmaster) } : {}),
  };
}

function row(ctx: BenchContext, mode: Mode, k: number, writers: number, api: Loop, raw: Loop): BenchRow {
  const total = mode.creates;
  const apiRate = ((total - api.errors.length) * 1000) / api.elapsedMs;
  const rawRate = ((total - raw.errors.length) * 1000) / raw.elapsedMs;
  const apiNonceErrors = api.errors.filter((e) => NONCE_ERROR.test(e)).length;
  const rawNonceErrors = raw.errors.filter((e) => NONCE_ERROR.test(e)).length;
  const r = Math.round((apiRate / rawRate) * 100) / 100;
  const met = ctx.smoke ? null : r >= 0.8 && apiNonceErrors === 0 && api.errors.length === 0;
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const perTx = (l: Loop) => Object.fromEntries(Object.entries(l.procMicros).map(([p, us]) => [p, Math.round(us / Math.max(1, total - l.errors.length)) / 1000]));
  const perBlock = (l: Loop) => (l.blocks > 0 ? Math.round(((total - l.errors.length) / l.blocks) * 10) / 10 : null);
  return {
    id: "B6",
    workload: `${writers} concurrent writers, ${total.toLocaleString("en-US")} creates (mined + indexed), ${mode.label}, ${k} key${k > 1 ? "s" : ""}`,
    figure: `${rate(apiRate, "tx/s")}, ${api.errors.length} errors (${apiNonceErrors} nonce), p50 ${ms(percentile(sorted(api.latencies), 50))}`,
    baseline: `${rate(rawRate, "tx/s")}, ${raw.errors.length} errors (${rawNonceErrors} nonce), p50 ${ms(percentile(sorted(raw.latencies), 50))}`,
    ratio: r,
    goal: "≥ 0.8× the baseline rate; 0 nonce errors",
    met,
    details: {
      mode: mode.label, keys: k, total, writers, apiElapsedMs: api.elapsedMs, rawElapsedMs: raw.elapsedMs,
      apiBlocks: api.blocks, rawBlocks: raw.blocks,
      // The whole machine's busy CPU per create (every process: node, anvil, Ponder, PostgreSQL, this driver).
      apiMachineCpuMsPerTx: Math.round(api.cpuMicros / Math.max(1, total - api.errors.length)) / 1000,
      rawMachineCpuMsPerTx: Math.round(raw.cpuMicros / Math.max(1, total - raw.errors.length)) / 1000, apiTxPerBlock: perBlock(api), rawTxPerBlock: perBlock(raw),
      // CPU ms per create of each process (sender = the API, or this driver for raw viem): contention-proof.
      apiProcCpuMsPerTx: perTx(api), rawProcCpuMsPerTx: perTx(raw),
      apiP90: percentile(sorted(api.latencies), 90), rawP90: percentile(sorted(raw.latencies), 90),
      loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
      apiErrors: api.errors.slice(0, 10), rawErrors: raw.errors.slice(0, 10),
    },
    ...(met === false
      ? { note: "Each API create also waits for Ponder to index its block (read-your-writes) and does the pre-checks (setup, balance, allowance, block time) and the details insert; the baseline only waits for the receipt." }
      : {}),
  };
}

export const workload: Workload = { id: "B6", title: "Concurrent writers", run };
