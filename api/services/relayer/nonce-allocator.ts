// Sends queued in this process while an allocation transaction runs go into the next one together:
// one lock/commit for many nonces (the lock's round trips, not signing, bound the rate otherwise).
// The lock itself (api.relayer_nonces) is what orders API copies sharing the key.
import { BatchConflict, type AllocateItem, type OutboxRepository } from "../../repositories/outbox.repository.ts";
import type { OutboxRow } from "../../repositories/outbox-rows.ts";

export type Allocated = { row: OutboxRow } | { conflict: OutboxRow };

export function createNonceAllocator(outbox: OutboxRepository) {
  const queue: { item: AllocateItem; hint: bigint; reconcile: boolean; alone: boolean; resolve(r: Allocated): void; reject(e: unknown): void }[] = [];
  let allocating = false;

  async function drain() {
    allocating = true;
    try {
      while (queue.length) {
        const batch = queue.splice(0, 64);
        const hint = batch.reduce((m, b) => (b.hint > m ? b.hint : m), 0n);
        try {
          const alone = batch.length === 1 && batch[0]!.alone;
          const results = await outbox.allocate(batch.map((b) => b.item), { hint, reconcile: batch.some((b) => b.reconcile), alone });
          results.forEach((r, i) => batch[i]!.resolve(r));
        } catch (err) {
          if (!(err instanceof BatchConflict)) {
            for (const b of batch) b.reject(err);
            continue;
          }
          for (const b of batch) {
            try {
              b.resolve((await outbox.allocate([b.item], { hint: b.hint, reconcile: b.reconcile }))[0]!);
            } catch (e) {
              b.reject(e);
            }
          }
        }
      }
    } finally {
      allocating = false;
    }
  }

  /**
   * `hint`: the chain's pending count when it was read (0 otherwise); `reconcile`: first send of the
   * process; `alone`: no other send of the key is in flight (the one-statement allocation may serve it).
   */
  return function allocate(item: AllocateItem, hint: bigint, reconcile: boolean, alone = false): Promise<Allocated> {
    return new Promise((resolve, reject) => {
      queue.push({ item, hint, reconcile, alone, resolve, reject });
      if (!allocating) void drain();
    });
  };
}
