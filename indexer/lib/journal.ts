// Journal ordering key (pure). One chain per deployment, so block and log index order everything.
/** Derived events of one log get seq 0..999; a log index fits below 10^6 per block. */
export const JOURNAL_SEQ_LIMIT = 1_000n;
export const JOURNAL_LOG_LIMIT = 1_000_000n;

/** key = block * 10^9 + logIndex * 10^3 + seq: strictly increasing in chain order. */
export function journalKey(blockNumber: bigint, logIndex: number, seq: number): bigint {
  if (seq < 0 || BigInt(seq) >= JOURNAL_SEQ_LIMIT) throw new Error(`journal seq out of range: ${seq}`);
  if (logIndex < 0 || BigInt(logIndex) >= JOURNAL_LOG_LIMIT) throw new Error(`log index out of range: ${logIndex}`);
  return blockNumber * JOURNAL_LOG_LIMIT * JOURNAL_SEQ_LIMIT + BigInt(logIndex) * JOURNAL_SEQ_LIMIT + BigInt(seq);
}

export function parseJournalKey(key: bigint): { blockNumber: bigint; logIndex: number; seq: number } {
  return {
    blockNumber: key / (JOURNAL_LOG_LIMIT * JOURNAL_SEQ_LIMIT),
    logIndex: Number((key / JOURNAL_SEQ_LIMIT) % JOURNAL_LOG_LIMIT),
    seq: Number(key % JOURNAL_SEQ_LIMIT),
  };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** JSON-safe payload: bigints become decimal strings, addresses lowercase (as in every table). */
export function toJsonPayload(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_k, v) =>
      typeof v === "bigint" ? v.toString() : typeof v === "string" && ADDRESS.test(v) ? v.toLowerCase() : v,
    ),
  );
}
