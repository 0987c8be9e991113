// Group commit for the relayer's read-your-writes writes to the discovery read model (the block
// catch-up after indexing, the details binding of a create). Each used to be a transaction of its own
// under the read model's one write lock, holding a pool connection while it queued for that lock: at
// 50 concurrent creates the waiters held the whole pool and every other query of every request
// (idempotency, budget, nonce allocation) waited behind them. Now the writes queued while one
// transaction runs go into the next one together (one connection, one lock, one commit; the
// projection runs once over every mission concerned). A failed batch is retried item by item, so one
// bad item never fails the others.
import type { CheckpointRows, DetailsBinding } from "./discovery-read-model.repository.ts";

type Item = { block: bigint; checkpoint?: true } | { attach: DetailsBinding & { hash: string } };
type Apply = (blocks: bigint[], attach: (DetailsBinding & { hash: string })[], opts?: { checkpoint?: boolean }) => Promise<CheckpointRows | undefined | void>;

export function discoveryWriteQueue(readModel: { applyWrites: Apply }) {
  let queue: { item: Item; resolve(rows: CheckpointRows | undefined): void; reject(err: unknown): void }[] = [];
  let running = false;

  // A batch with an item that asks for Ponder's checkpoint reads it first in its transaction; every
  // item of the batch gets those rows (its statements ran after that read).
  const apply = async (items: Item[]) =>
    (await readModel.applyWrites(
      items.flatMap((i) => ("block" in i ? [i.block] : [])),
      items.flatMap((i) => ("attach" in i ? [i.attach] : [])),
      ...(items.some((i) => "checkpoint" in i) ? [{ checkpoint: true }] : []),
    )) ?? undefined;

  async function drain() {
    running = true;
    try {
      while (queue.length) {
        const batch = queue;
        queue = [];
        try {
          const rows = await apply(batch.map((b) => b.item));
          for (const b of batch) b.resolve(rows);
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

  function enqueue(item: Item): Promise<CheckpointRows | undefined> {
    return new Promise((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!running) void drain();
    });
  }

  return {
    /** Everything the journal entries of `block` touched (the relayer's hook once the indexer has it). */
    syncBlock: (block: bigint) => enqueue({ block }).then(() => {}),
    /**
     * The same for each of `blocks`, with Ponder's checkpoint read first in the transaction (the
     * relayer's wait folds its checkpoint read into the catch-up): the checkpoint rows it read.
     */
    syncBlocksReading: async (blocks: bigint[]): Promise<CheckpointRows> =>
      (await Promise.all(blocks.map((block) => enqueue({ block, checkpoint: true }))))[0] ?? [],
    /** Binds a details row to its mission and re-projects the mission (the create path). */
    attachDetails: (hash: string, mission: DetailsBinding) => enqueue({ attach: { hash, ...mission } }).then(() => {}),
  };
}
export type DiscoveryWriteQueue = ReturnType<typeof discoveryWriteQueue>;
