// B6: write throughput. 50 concurrent writers create missions through the API (each request returns
// after mining and indexing) vs raw viem with its nonce manager: one account (the relayer key), 50
// concurrent async senders, the same createMission call, each waiting for its receipt.
import { randomBytes } from "node:crypto";
import { createPublicClient, createWalletClient, http, nonceManager, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { foundry } from "viem/chains";
import { anvilAccount } from "../../lib/accounts.ts";
import { rawCreateCall } from "../lib/raw-create.ts";
import { signIn, startBenchStack } from "../lib/stack.ts";
import { ms, percentile, rate } from "../lib/stats.ts";
import type { BenchContext, BenchRow, Workload } from "../types.ts";

const NONCE_ERROR = /nonce|replacement transaction underpriced|already known/i;
/** anvil's account 0 (the deployment's relayer): a public development key, chain 31337 only. */
const ANVIL_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as Hex;

/** `writers` async loops share `total` jobs; returns elapsed ms, per-job latencies and errors. */
async function closedLoop(total: number, writers: number, job: (i: number) => Promise<void>) {
  let next = 0;
  const latencies: number[] = [];
  const errors: string[] = [];
  const t0 = performance.now();
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
  return { elapsedMs: performance.now() - t0, latencies, errors };
}

async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const total = ctx.smoke ? 50 : 2_000;
  const writers = ctx.smoke ? 10 : 50;
  const stack = await startBenchStack(ctx);
  try {
    const users = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => anvilAccount(i));
    const tokens = await Promise.all(users.map((u) => signIn(stack.apiUrl, u)));
    const body = (i: number) => JSON.stringify({
      title: `Bench ${i}`, description: "B6", rewardAmount: "0.01", category: "delivery", expiresIn: 86_400,
    });
    const apiJob = async (i: number) => {
      const res = await fetch(`${stack.apiUrl}/missions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokens[i % users.length]}`, "idempotency-key": randomBytes(12).toString("hex") },
        body: body(i),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`${res.status} ${text.slice(0, 200)}`);
    };
    for (let i = 0; i < 5; i++) await apiJob(i); // warm-up
    ctx.log(`B6: API, ${total} creates by ${writers} writers`);
    const api = await closedLoop(total, writers, apiJob);

    ctx.log(`B6: raw viem + nonceManager, ${total} creates by ${writers} senders`);
    const account = privateKeyToAccount(ANVIL_KEY_0, { nonceManager });
    const client = createPublicClient({ chain: foundry, transport: http(stack.rpcUrl), pollingInterval: 20 });
    const wallet = createWalletClient({ account, chain: foundry, transport: http(stack.rpcUrl) });
    const escrow = stack.deployment.contracts.MissionEscrow.address;
    const expiresAt = BigInt(Math.floor(Date.now() / 1000) + 86_400);
    const rawJob = async (i: number) => {
      const hash = await wallet.writeContract({
        ...rawCreateCall(stack.deployment, [users[i % users.length]!.address, 10_000n, expiresAt, 0, `0x${randomBytes(32).toString("hex")}` as Hex]),
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== "success") throw new Error("reverted");
    };
    for (let i = 0; i < 5; i++) await rawJob(i);
    const raw = await closedLoop(total, writers, rawJob);

    const apiRate = ((total - api.errors.length) * 1000) / api.elapsedMs;
    const rawRate = ((total - raw.errors.length) * 1000) / raw.elapsedMs;
    const apiNonceErrors = api.errors.filter((e) => NONCE_ERROR.test(e)).length;
    const rawNonceErrors = raw.errors.filter((e) => NONCE_ERROR.test(e)).length;
    const r = Math.round((apiRate / rawRate) * 100) / 100;
    const met = ctx.smoke ? null : r >= 0.8 && apiNonceErrors === 0 && api.errors.length === 0;
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    return [
      {
        id: "B6",
        workload: `${writers} concurrent writers, ${total.toLocaleString("en-US")} creates (mined + indexed)`,
        figure: `${rate(apiRate, "tx/s")}, ${api.errors.length} errors (${apiNonceErrors} nonce), p50 ${ms(percentile(sorted(api.latencies), 50))}`,
        baseline: `${rate(rawRate, "tx/s")}, ${raw.errors.length} errors (${rawNonceErrors} nonce), p50 ${ms(percentile(sorted(raw.latencies), 50))}`,
        ratio: r,
        goal: "≥ 0.8× the baseline rate; 0 nonce errors",
        met,
        details: {
          total, writers, apiElapsedMs: api.elapsedMs, rawElapsedMs: raw.elapsedMs,
          apiErrors: api.errors.slice(0, 10), rawErrors: raw.errors.slice(0, 10),
        },
        ...(met === false
          ? { note: "Each API create also waits for Ponder to index its block (read-your-writes) and does the pre-checks (balance, allowance, block time) and the details insert; the baseline only waits for the receipt." }
          : {}),
      },
    ];
  } finally {
    await stack.stop();
  }
}

export const workload: Workload = { id: "B6", title: "Concurrent writers", run };
