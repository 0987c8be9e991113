// Appends domain events to the journal in chain order; `seq` numbers the events one log derives.
import { journal } from "ponder:schema";
import type { JournalEvents, JournalType } from "../../domain/index.ts";
import { journalKey, toJsonPayload } from "../lib/journal.ts";
import type { Addr, Ctx, EventLike } from "./types.ts";

export type Journal = {
  /** Appends one entry; the payload's shape is the type's (domain/journal-events.ts). */
  emit<T extends JournalType>(
    type: T,
    payload: JournalEvents[T],
    about?: { missionId?: string | null; account?: Addr | null },
    slot?: { key: bigint; seq: number },
  ): Promise<bigint>;
  next(): { key: bigint; seq: number };
};

export function openJournal(context: Ctx, event: EventLike): Journal {
  let seq = 0;
  const next = () => {
    const s = seq++;
    return { key: journalKey(event.block.number, event.log.logIndex, s), seq: s };
  };
  return {
    next,
    async emit(type, payload, about = {}, slot = next()) {
      const { key, seq: s } = slot;
      await context.db.insert(journal).values({
        id: key,
        chainId: context.chain.id,
        blockNumber: event.block.number,
        blockTimestamp: event.block.timestamp,
        txHash: event.transaction.hash,
        logIndex: event.log.logIndex,
        seq: s,
        type,
        missionId: about.missionId ?? null,
        account: about.account ? (about.account.toLowerCase() as Addr) : null,
        payload: toJsonPayload(payload) as Record<string, unknown>,
      });
      return key;
    },
  };
}
