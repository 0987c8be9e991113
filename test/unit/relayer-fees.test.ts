import { createPublicClient, custom, type PublicClient } from "viem";
import { foundry } from "viem/chains";
import { describe, expect, it } from "vitest";
import { createFeeSource } from "../../api/services/relayer/fees.ts";

/** A node answering the block (base fee `base`) and the tip (`tip`) after `delayMs`, counting calls and the most at once. */
function node(base: bigint, tip: bigint, delayMs = 5) {
  const seen = { calls: [] as string[], inFlight: 0, most: 0 };
  const client = createPublicClient({
    chain: foundry,
    transport: custom({
      async request({ method }: { method: string }) {
        seen.calls.push(method);
        seen.most = Math.max(seen.most, ++seen.inFlight);
        await new Promise((r) => setTimeout(r, delayMs));
        seen.inFlight--;
        if (method === "eth_getBlockByNumber") {
          return { number: "0x10", hash: `0x${"ab".repeat(32)}`, timestamp: "0x64", baseFeePerGas: `0x${base.toString(16)}`, transactions: [], gasLimit: "0x1c9c380", gasUsed: "0x0" };
        }
        if (method === "eth_maxPriorityFeePerGas") return `0x${tip.toString(16)}`;
        throw new Error(`unexpected ${method}`);
      },
    }),
  }) as unknown as PublicClient;
  return { client, seen };
}

const metrics = { relayerBaseFee: { set: () => {} } } as never;

describe("relayer fees: the block and the tip read at once", () => {
  it("gives viem's fees (base × 1.2 + tip) from one block read and one tip read, made side by side", async () => {
    const { client, seen } = node(1_000_000_007n, 1_500_000_000n);
    const viem = await client.estimateFeesPerGas();
    seen.calls.length = 0;
    seen.most = 0;
    const fees = await createFeeSource(client, { capWei: null, waitMs: 0 }, metrics)();
    expect(fees).toEqual(viem);
    expect(fees).toEqual({ maxFeePerGas: (1_000_000_007n * 12n) / 10n + 1_500_000_000n, maxPriorityFeePerGas: 1_500_000_000n });
    expect(seen.calls.sort()).toEqual(["eth_getBlockByNumber", "eth_maxPriorityFeePerGas"]);
    expect(seen.most).toBe(2);
  });

  it("keeps the cap: above it, FEE_CAP_EXCEEDED once the wait is over", async () => {
    const { client } = node(100_000_000_000n, 1_000_000_000n, 1);
    await expect(createFeeSource(client, { capWei: 50_000_000_000n, waitMs: 0 }, metrics)()).rejects.toMatchObject({ code: "FEE_CAP_EXCEEDED" });
  });
});
