// B5: POST /missions until the mission is visible to a GET (the API answers after read-your-writes).
// Baseline, same run, same stack: a raw viem transaction (same createMission call, send + receipt)
// plus Ponder's lag (receipt -> row visible in the indexer's table), each timed on its own.
// Open loop: requests start at a constant rate whether or not earlier ones have finished.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from "viem";
import { foundry } from "viem/chains";
import { missionEscrowAbi } from "../../../abis/index.ts";
import { anvilAccount } from "../../lib/accounts.ts";
import { signIn, startBenchStack } from "../lib/stack.ts";
import { ms, percentile } from "../lib/stats.ts";
import type { BenchContext, BenchRow, Workload } from "../types.ts";

const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const p99 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 99);

/** Starts `n` tasks `intervalMs` apart (open loop) and waits for all of them. */
async function openLoop<T>(n: number, intervalMs: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const t0 = performance.now();
  const running: Promise<T>[] = [];
  for (let i = 0; i < n; i++) {
    const due = t0 + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    running.push(task(i));
  }
  return Promise.all(running);
}

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const n = ctx.smoke ? 10 : 60;
  const intervalMs = ctx.smoke ? 150 : 250; // 4 creates/s: latency, not saturation (that is B6)
  const stack = await startBenchStack(ctx);
  const db = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  try {
    const users = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => anvilAccount(i));
    const tokens = await Promise.all(users.map((u) => signIn(stack.apiUrl, u)));
    const body = (i: number) => JSON.stringify({
      title: `Bench ${i}`, description: "B5", rewardAmount: "0.01", category: "delivery", expiresIn: 86_400,
      location: { latitude: 48.8566, longitude: 2.3522, radius: 100 },
    });

    // Warm-up (connections, JIT, the relayer's caches) on both sides, not measured.
    for (let i = 0; i < 3; i++) await apiCreate(-1 - i);

    async function apiCreate(i: number): Promise<number> {
      const t0 = performance.now();
      const k = ((i % users.length) + users.length) % users.length;
      const res = await fetch(`${stack.apiUrl}/missions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[k]}`, "idempotency-key": randomBytes(12).toString("hex") },
        body: body(i),
      });
      const json = (await res.json()) as any;
      if (res.status !== 201) throw new Error(`POST /missions ${res.status} ${JSON.stringify(json)}`);
      const get = await fetch(`${stack.apiUrl}/missions/${json.data.id}`);
      if (get.status !== 200) throw new Error(`GET after POST: ${get.status} (read-your-writes broken)`);
      await get.arrayBuffer();
      return performance.now() - t0;
    }
    const apiMs = await openLoop(n, intervalMs, apiCreate);

    // Baseline: the relayer key sends the same call with viem; then poll the indexer's table.
    const client = createPublicClient({ chain: foundry, transport: http(stack.rpcUrl), pollingInterval: 5 });
    const wallet = createWalletClient({ account: anvilAccount(0), chain: foundry, transport: http(stack.rpcUrl) });
    const escrow = stack.deployment.contracts.MissionEscrow.address;
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    const table = `"${stack.chainSchema}".missions`;
    let nonce = await client.getTransactionCount({ address: wallet.account.address, blockTag: "pending" });
    async function rawCreate(i: number): Promise<{ tx: number; lag: number }> {
      const t0 = performance.now();
      const hash = await wallet.writeContract({
        address: escrow, abi: missionEscrowAbi as Abi, functionName: "createMission",
        args: [users[i % users.length]!.address, 10_000n, expiresAt, 0, `0x${randomBytes(32).toString("hex")}` as Hex],
        nonce: nonce++,
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 5 });
      const t1 = performance.now();
      if (receipt.status !== "success") throw new Error("baseline createMission reverted");
      const log = receipt.logs.find((l) => l.address.toLowerCase() === escrow.toLowerCase());
      const onChainId = BigInt(log!.topics[1]!).toString();
      for (;;) {
        const { rowCount } = await db.query(`SELECT 1 FROM ${table} WHERE on_chain_id = $1`, [onChainId]);
        if (rowCount) break;
        await sleep(2);
      }
      return { tx: t1 - t0, lag: performance.now() - t1 };
    }
    for (let i = 0; i < 3; i++) await rawCreate(i);
    const raw = await openLoop(n, intervalMs, rawCreate);
    const txMs = raw.map((r) => r.tx);
    const lagMs = raw.map((r) => r.lag);

    const baseP50 = p50(txMs) + p50(lagMs);
    const figureP50 = p50(apiMs);
    const met = ctx.smoke ? null : figureP50 <= baseP50 + 25 && figureP50 <= 150;
    return [
      {
        id: "B5",
        workload: `POST /missions until visible to a GET (${n} creates, open loop ${Math.round(1000 / intervalMs)}/s)`,
        figure: `p50 ${ms(figureP50)}, p99 ${ms(p99(apiMs))}`,
        baseline: `p50 ${ms(baseP50)} = viem tx p50 ${ms(p50(txMs))} + Ponder lag p50 ${ms(p50(lagMs))} (p99 tx ${ms(p99(txMs))}, lag ${ms(p99(lagMs))})`,
        ratio: Math.round((figureP50 / baseP50) * 100) / 100,
        goal: "≤ baseline + 25 ms; p50 ≤ 150 ms",
        met,
        details: { n, intervalMs, apiMs, txMs, lagMs, overheadP50Ms: figureP50 - baseP50 },
        ...(met === false
          ? { note: `API p50 − baseline p50 = ${ms(figureP50 - baseP50)}: the API adds estimateGas + nonce read (parallel), the outbox insert, eth_getBlockReceipts polling (15 ms) and the indexer poll (10 ms) on top of send + receipt + lag.` }
          : {}),
      },
    ];
  } finally {
    await db.end().catch(() => {});
    await stack.stop();
  }
}

export const workload: Workload = { id: "B5", title: "POST /missions until visible", run };
