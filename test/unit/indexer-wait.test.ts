// The read-your-writes wait (api/services/indexer.service.ts) over a checkpoint source: woken by
// Ponder's NOTIFY at an indexed block's commit rather than by a poll, polling every 10 ms until a
// notification has been heard (a Ponder without the views trigger never sends one), and falling back
// to Ponder's HTTP /status when the checkpoint cannot be read. The source is a stand-in for
// api/repositories/indexer-checkpoint.repository.ts (the e2e files run the real one).
import { describe, expect, it } from "vitest";
import { indexerService } from "../../api/services/indexer.service.ts";
import type { CheckpointSource } from "../../api/repositories/indexer-checkpoint.repository.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Nothing listens there: the HTTP fallback answers null at once.
const NO_HTTP = "http://127.0.0.1:9";

function fakeSource(opts: { notifies: boolean; failing?: boolean }) {
  const s = { block: 1n, reads: 0, notify: () => {} };
  const src: CheckpointSource = {
    async block() {
      s.reads++;
      if (opts.failing) throw Object.assign(new Error("relation does not exist"), { code: "42P01" });
      return s.block;
    },
    async listen(onNotify) {
      if (opts.notifies) s.notify = onNotify;
      return { close() {} };
    },
  };
  /** Ponder commits block `b`: the checkpoint moves, then (if it can) the NOTIFY. */
  const commit = (b: bigint) => {
    s.block = b;
    s.notify();
  };
  return { s, src, commit };
}

describe("indexer wait (read-your-writes)", () => {
  it("wakes at the NOTIFY, and reads rarely while notifications come", async () => {
    const { s, src, commit } = fakeSource({ notifies: true });
    const svc = indexerService({ url: NO_HTTP, chainId: 31337, waitMs: 5_000, checkpoints: src });
    // A first wait: polled at 10 ms until the first notification is heard.
    const first = svc.waitForBlock(2n);
    await sleep(30);
    commit(2n);
    expect(await first).toBe(true);

    // Heard: no 10-ms polling any more; the commit's NOTIFY wakes the wait at once.
    const second = svc.waitForBlock(3n);
    await sleep(5);
    const before = s.reads;
    await sleep(120);
    expect(s.reads - before).toBeLessThanOrEqual(1); // at 10 ms it would be ~12
    const t = performance.now();
    commit(3n);
    expect(await second).toBe(true);
    expect(performance.now() - t).toBeLessThan(20);
  });

  it("without notifications, polls every 10 ms", async () => {
    const { s, src, commit } = fakeSource({ notifies: false });
    const svc = indexerService({ url: NO_HTTP, chainId: 31337, waitMs: 5_000, checkpoints: src });
    const wait = svc.waitForBlock(2n);
    await sleep(100);
    expect(s.reads).toBeGreaterThanOrEqual(4);
    commit(2n);
    expect(await wait).toBe(true);
  });

  it("an unreadable checkpoint falls back to HTTP, and the wait gives up after waitMs", async () => {
    const { src } = fakeSource({ notifies: true, failing: true });
    const svc = indexerService({ url: NO_HTTP, chainId: 31337, waitMs: 150, checkpoints: src });
    const t = performance.now();
    expect(await svc.waitForBlock(2n)).toBe(false);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
  });

  it("a wait arriving with no NOTIFY since the last read does not read: it sleeps until the NOTIFY", async () => {
    const { s, src, commit } = fakeSource({ notifies: true });
    const svc = indexerService({ url: NO_HTTP, chainId: 31337, waitMs: 5_000, checkpoints: src });
    const first = svc.waitForBlock(2n);
    await sleep(30);
    commit(2n);
    expect(await first).toBe(true);
    const before = s.reads;
    const next = svc.waitForBlock(3n);
    await sleep(20);
    expect(s.reads).toBe(before); // block 3 is above the last read and no NOTIFY came since
    commit(3n);
    expect(await next).toBe(true);
    expect(s.reads).toBe(before + 1);
    // A block the last read already covers is read (never answered from memory).
    expect(await svc.waitForBlock(3n)).toBe(true);
    expect(s.reads).toBe(before + 2);
  });

  it("waitCaughtUp folds the read model's catch-up into the read at the NOTIFY", async () => {
    const { s, src, commit } = fakeSource({ notifies: true });
    const folds: bigint[][] = [];
    let failFold = false;
    const svc = indexerService({
      url: NO_HTTP, chainId: 31337, waitMs: 5_000, checkpoints: src,
      catchUp: async (blocks) => {
        folds.push(blocks);
        if (failFold) throw new Error("read model down");
        return s.block;
      },
    });
    // Not heard yet: plain 10-ms reads, never the catch-up; the first NOTIFY's read is folded.
    const first = svc.waitCaughtUp(2n);
    await sleep(30);
    expect(folds).toEqual([]);
    expect(s.reads).toBeGreaterThanOrEqual(2);
    commit(2n);
    expect(await first).toEqual({ indexed: true, caughtUp: true });
    expect(folds).toEqual([[2n]]);
    // Heard: the NOTIFY's read is the catch-up (probe beside it), no checkpoint read of its own.
    const reads = s.reads;
    let probes = 0;
    const second = svc.waitCaughtUp(3n, () => probes++);
    await sleep(10);
    commit(3n);
    expect(await second).toEqual({ indexed: true, caughtUp: true });
    expect(folds).toEqual([[2n], [3n]]);
    expect(probes).toBe(1);
    expect(s.reads).toBe(reads);
    // A failed catch-up falls back to the checkpoint read; the caller then catches up itself.
    failFold = true;
    const third = svc.waitCaughtUp(4n);
    await sleep(10);
    commit(4n);
    expect(await third).toEqual({ indexed: true, caughtUp: false });
    expect(s.reads).toBe(reads + 1);
  });
  it("a waiter whose block the folded catch-up did not name is not caught up, even when the checkpoint passed it", async () => {
    const { s, src, commit } = fakeSource({ notifies: true });
    const folds: bigint[][] = [];
    const svc = indexerService({
      url: NO_HTTP, chainId: 31337, waitMs: 5_000, checkpoints: src,
      catchUp: async (blocks) => {
        folds.push(blocks);
        return s.block;
      },
    });
    // Heard, last read at block 2.
    const warm = svc.waitCaughtUp(2n);
    commit(2n);
    expect(await warm).toEqual({ indexed: true, caughtUp: true });
    // Two waits: block 3 (the next: folded) and block 4 (further ahead: not folded). Ponder indexes both
    // before the NOTIFY's read, so that read's checkpoint (4) covers both, but only block 3 was projected.
    const near = svc.waitCaughtUp(3n);
    const far = svc.waitCaughtUp(4n);
    await sleep(10);
    commit(4n);
    expect(await near).toEqual({ indexed: true, caughtUp: true });
    expect(await far).toEqual({ indexed: true, caughtUp: false });
    expect(folds.at(-1)).toEqual([3n]);
  });
});
