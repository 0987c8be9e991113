// The read model's group commit (api/repositories/discovery-write-queue.ts): writes queued while a
// transaction runs go into the next one together; a failed batch is retried item by item.
import { describe, expect, it } from "vitest";
import { discoveryWriteQueue } from "../../api/repositories/discovery-write-queue.ts";

type Call = { blocks: bigint[]; attach: { hash: string; onChainId: string }[] };

function recorder(failWhen: (c: Call) => boolean = () => false) {
  const calls: Call[] = [];
  let release: (() => void) | null = null;
  return {
    calls,
    /** Lets the transaction in progress finish. */
    release: () => release?.(),
    applyWrites: async (blocks: bigint[], attach: { hash: string; onChainId: string; escrowAddress: string }[]) => {
      const call = { blocks, attach: attach.map((a) => ({ hash: a.hash, onChainId: a.onChainId })) };
      calls.push(call);
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
      if (failWhen(call)) throw new Error(`refused ${JSON.stringify(call.attach)}`);
    },
  };
}

describe("discovery write queue", () => {
  it("runs the writes queued during a transaction in one next transaction", async () => {
    const rec = recorder();
    const q = discoveryWriteQueue(rec);
    const first = q.syncBlock(10n);
    const rest = [q.syncBlock(11n), q.attachDetails("0xaa", { escrowAddress: "0xE", onChainId: "1" }), q.syncBlock(11n), q.attachDetails("0xbb", { escrowAddress: "0xE", onChainId: "2" })];
    expect(rec.calls).toHaveLength(1);
    rec.release();
    await Promise.all([first, ...rest]);
    expect(rec.calls).toEqual([
      { blocks: [10n], attach: [] },
      { blocks: [11n, 11n], attach: [{ hash: "0xaa", onChainId: "1" }, { hash: "0xbb", onChainId: "2" }] },
    ]);
  });

  it("retries a failed batch item by item: only the failing item fails", async () => {
    const rec = recorder((c) => c.attach.some((a) => a.hash === "0xbad"));
    const q = discoveryWriteQueue(rec);
    const first = q.syncBlock(1n);
    const good = q.attachDetails("0xaa", { escrowAddress: "0xE", onChainId: "1" });
    const bad = q.attachDetails("0xbad", { escrowAddress: "0xE", onChainId: "2" });
    const block = q.syncBlock(2n);
    rec.release();
    await expect(first).resolves.toBeUndefined();
    await expect(good).resolves.toBeUndefined();
    await expect(bad).rejects.toThrow(/refused/);
    await expect(block).resolves.toBeUndefined();
    // The batch of three, then each of them alone.
    expect(rec.calls.map((c) => c.blocks.length + c.attach.length)).toEqual([1, 3, 1, 1, 1]);
  });

  it("a batch with a checkpoint-reading item reads it once; every item of the batch gets the rows", async () => {
    const seen: (boolean | undefined)[] = [];
    let release: (() => void) | null = null;
    const q = discoveryWriteQueue({
      applyWrites: async (_blocks, _attach, opts) => {
        seen.push(opts?.checkpoint);
        if (seen.length === 1) await new Promise<void>((r) => (release = r));
        return opts?.checkpoint ? [{ latest_checkpoint: `cp${seen.length}` }] : undefined;
      },
    });
    const first = q.syncBlock(1n);
    const rest = [q.syncBlocksReading([2n, 3n]), q.attachDetails("0xaa", { escrowAddress: "0xE", onChainId: "1" })];
    release!();
    await first;
    expect(await rest[0]).toEqual([{ latest_checkpoint: "cp2" }]);
    await rest[1];
    expect(seen).toEqual([undefined, true]);
  });
});
