// The reactor interface: a named consumer of the indexer's journal (api/reactors/runner.ts).
import type { Deps } from "../deps.ts";
import type { Logger } from "../lib/logger.ts";
import type { JournalEntry } from "../repositories/journal.repository.ts";

export type { JournalEntry };

export interface ReactorContext {
  deps: Deps;
  logger: Logger;
}

export interface Reactor {
  /** Stable name: the key of its cursor in api.reactor_cursors. */
  name: string;
  /** Only these journal types are handed to `handle` (all when absent). */
  types?: readonly string[];
  /**
   * Acts on one entry. Must be idempotent, keyed by `entry.id` (or chain id + tx hash + log index):
   * after a crash between the side effect and the cursor update the entry is handed over again.
   * Throwing leaves the cursor before the entry; it is retried (see runner).
   */
  handle(entry: JournalEntry, ctx: ReactorContext): Promise<void>;
}
