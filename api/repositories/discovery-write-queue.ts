// Group commit for the relayer's read-your-writes writes to the discovery read model (the block
// catch-up after indexing, the details binding of a create). Each used to be a transaction of its own
// under the read model's one write lock, holding a pool connection while it queued for that lock: at
// 50 concurrent creates the waiters held the whole pool and every other query of every request
// (idempotency, budget, nonce allocation) waited behind them. Now the writes queued while one
// transaction runs go into the next one together (one connection, one lock, one commit; the
// projection runs once over every mission concerned). A failed batch is retried item by item, so one
// bad item never fails the others.
import type { DetailsBinding, DiscoveryReadModelRepository } from "./discovery-read-model.repository.ts";

type Item = { block: bigint } | { attach: DetailsBinding & { hash: string } };

export function discoveryWriteQueue(readModel: Pick<DiscoveryReadModelRepository, "applyWrites">) {
  let queue: { item: Item; resolve(): void; reject(err: unknown): void }[] = [];
  let running = false;

  const apply = (items: Item[]) =>
    readModel.applyWrites(
      items.flatMap((i) => ("block" in i ? [i.block] : [])),
      items.flatMap((i) => ("attach" in i ? [i.attach] : [])),
    );

  async function drain() {
    running = true;
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          await apply(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          for (const b of batch) await apply([b.item]).then(b.resolve, b.reject);
        }
      }
    } finally {
      running = false;
    }
  }

  function enqueue(item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
  }

  return {
    /** Everything the journal entries of `block` touched (the relayer's hook once the indexer has it). */
    syncBlock: (block: bigint) => enqueue({ block }),
    /** Binds a details row to its mission and re-projects the mission (the create path). */
    attachDetails: (hash: string, mission: DetailsBinding) => enqueue({ attach: { hash, ...mission } }),
  };
}
export type DiscoveryWriteQueue = ReturnType<typeof discoveryWriteQueue>;
