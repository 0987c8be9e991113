// The reactor interface: a named consumer of the indexer's journal (api/reactors/runner.ts). Each
// reactor is built in the composition root (api/deps/workers.ts) from the narrow ports it uses.
import type { Logger } from "../lib/logger.ts";
import type { JournalType } from "../../domain/index.ts";
import type { JournalEntry } from "../repositories/journal.repository.ts";

export type { JournalEntry };

export interface ReactorContext {
  logger: Logger;
}

/** `T`: the journal types it takes; `handle` then sees only those, narrowed by `entry.type`. */
export interface Reactor<T extends JournalType = JournalType> {
  /** Stable name: the key of its cursor in api.reactor_cursors. */
  name: string;
  /** Only these journal types are handed to `handle` (all when absent). */
  types?: readonly T[];
  /**
   * Blocks that must lie on top of an entry's block before it is handed over (irreversible effects:
   * mints, webhooks); none when absent. See api/reactors/finality.ts.
   */
  confirmations?: number;
  /**
   * Acts on one entry. Must be idempotent, keyed by `entry.id` (or chain id + tx hash + log index):
   * after a crash between the side effect and the cursor update the entry is handed over again.
   * Throwing leaves the cursor before the entry; it is retried (see runner).
   */
  handle(entry: JournalEntry<T>, ctx: ReactorContext): Promise<void>;
}
