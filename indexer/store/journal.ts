// Appends domain events to the journal in chain order; `seq` numbers the events one log derives.
import { journal, xpLedger } from "ponder:schema";
import type { JournalEvents, JournalType } from "../../domain/index.ts";
import { journalKey, toJsonPayload } from "../lib/journal.ts";
import type { Addr, Ctx, EventLike } from "./types.ts";

/**
 * Ponder's insert copies the values it is given, and a row holding an object (the JSON payload) is
 * copied with a `structuredClone` of the whole row. A value carrying Ponder's copy-on-write marker is
 * taken as it is, the rest of the row with a spread. The payload is built here for its row and never
 * touched again, and Ponder turns a JSON column into a parsed copy of its own when it normalises the
 * row, so passing it by reference changes nothing that is stored.
 */
const COPY_ON_WRITE = Symbol.for("ponder:copyOnWrite");
function owned<T extends object>(payload: T): T {
  Object.defineProperty(payload, COPY_ON_WRITE, { value: payload, enumerable: false });
  return payload;
}

export type Journal = {
  /** Appends one entry; the payload's shape is the type's (domain/journal-events.ts). */
  emit<T extends JournalType>(
    type: T,
    payload: JournalEvents[T],
    about?: { missionId?: string | null; account?: Addr | null },
    slot?: { key: bigint; seq: number },
  ): Promise<bigint>;
  next(): { key: bigint; seq: number };
  /** Inserts the XP ledger row an XP_AWARDED entry goes with: now, or at `flush` when buffered. */
  ledger(row: typeof xpLedger.$inferInsert): Promise<void>;
  /** Writes the rows a buffered journal holds (one insert per table); a no-op otherwise. */
  flush(): Promise<void>;
};

/**
 * A journal for one log. Unbuffered, each `emit` inserts its row; buffered (handlers that emit several
 * entries), the rows are kept and `flush` inserts them in one store call, which the handler must make
 * before it returns. The rows and their keys are the same either way.
 */
export function openJournal(context: Ctx, event: EventLike, o: { buffered?: boolean } = {}): Journal {
  let seq = 0;
  // Read once: Ponder hands the handler's event fields through proxies (each read goes through a trap).
  const blockNumber = event.block.number;
  const blockTimestamp = event.block.timestamp;
  const txHash = event.transaction.hash;
  const logIndex = event.log.logIndex;
  const chainId = context.chain.id;
  const entries: (typeof journal.$inferInsert)[] = [];
  const ledgerRows: (typeof xpLedger.$inferInsert)[] = [];
  const next = () => {
    const s = seq++;
    return { key: journalKey(blockNumber, logIndex, s), seq: s };
  };
  return {
    next,
    async emit(type, payload, about = {}, slot = next()) {
      const { key, seq: s } = slot;
      const row = {
        id: key,
        chainId,
        blockNumber,
        blockTimestamp,
        txHash,
        logIndex,
        seq: s,
        type,
        missionId: about.missionId ?? null,
        account: about.account ? (about.account.toLowerCase() as Addr) : null,
        payload: owned(toJsonPayload(payload) as Record<string, unknown>),
      };
      if (o.buffered) entries.push(row);
      else await context.db.insert(journal).values(row);
      return key;
    },
    async ledger(row) {
      if (o.buffered) ledgerRows.push(row);
      else await context.db.insert(xpLedger).values(row);
    },
    async flush() {
      if (ledgerRows.length > 0) await context.db.insert(xpLedger).values(ledgerRows.splice(0));
      if (entries.length > 0) await context.db.insert(journal).values(entries.splice(0));
    },
  };
}
