import { MethodNotFoundRpcError, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { missionEscrowAbi } from "../../abis/index.ts";
import { createSender } from "../../api/services/relayer/send.ts";

const account = privateKeyToAccount(`0x${"22".repeat(32)}`);
const ESCROW = "0x00000000000000000000000000000000000000e5";
const call = { address: ESCROW, abi: missionEscrowAbi, functionName: "cancelMission", args: [1n] } as const;

/** A sender whose node answers eth_createAccessList with `answer` (a value, or an error to throw). */
function sender(answer: () => unknown) {
  const asked = { accessList: 0, estimateGas: 0 };
  const publicClient = {
    request: async ({ method }: { method: string }) => {
      if (method !== "eth_createAccessList") throw new Error(`unexpected ${method}`);
      asked.accessList++;
      const a = answer();
      if (a instanceof Error) throw a;
      return a;
    },
    estimateContractGas: async () => {
      asked.estimateGas++;
      return 77_000n;
    },
  };
  const s = createSender({
    account, chainId: 31337, publicClient: publicClient as never, outbox: {} as never,
    logger: { info: () => {}, warn: () => {}, error: () => {} } as never,
    currentFees: async () => ({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }),
    allocate: async () => { throw new Error("not used"); }, signTx: account.signTransaction,
  });
  return { estimate: () => s.estimate(call as never), asked };
}

const list = (keys: number) => [{ address: ESCROW, storageKeys: Array.from({ length: keys }, (_, i) => `0x${i.toString(16).padStart(64, "0")}` as Hex) }];

describe("relayer gas: one simulation (eth_createAccessList), eth_estimateGas as the fallback", () => {
  it("takes gasUsed plus what the list could have saved (100 an address, 200 a storage key)", async () => {
    const { estimate, asked } = sender(() => ({ accessList: [...list(3), { address: account.address, storageKeys: [] }], gasUsed: "0x186a0" }));
    expect(await estimate()).toBe(100_000n + 2n * 100n + 3n * 200n);
    expect(asked).toEqual({ accessList: 1, estimateGas: 0 });
  });
  it("falls back to eth_estimateGas on an `error` field (geth's revert), and asks again next time", async () => {
    const { estimate, asked } = sender(() => ({ accessList: list(1), gasUsed: "0x5208", error: "execution reverted" }));
    expect(await estimate()).toBe(77_000n);
    expect(await estimate()).toBe(77_000n);
    expect(asked).toEqual({ accessList: 2, estimateGas: 2 });
  });
  it("falls back on a revert thrown by the node (anvil), so the revert is decoded by eth_estimateGas", async () => {
    const { estimate, asked } = sender(() => new Error("execution reverted: custom error 0x0e87f1fc"));
    expect(await estimate()).toBe(77_000n);
    expect(asked).toEqual({ accessList: 1, estimateGas: 1 });
  });
  it("a node without the method is asked once", async () => {
    const { estimate, asked } = sender(() => new MethodNotFoundRpcError(new Error("method not found")));
    await estimate();
    await estimate();
    expect(asked).toEqual({ accessList: 1, estimateGas: 2 });
  });
});
