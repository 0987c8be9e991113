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

/**
 * JSON-safe payload: bigints become decimal strings, addresses lowercase (as in every table).
 * The same result as JSON.parse(JSON.stringify(value, replacer)) for the plain data handlers pass
 * (objects, arrays, strings, numbers, booleans, bigints, null/undefined), without the round trip:
 * this runs for every journal row of a backfill.
 */
export function toJsonPayload(value: unknown): unknown {
  return walk(value, false);
}

function walk(v: unknown, inArray: boolean): unknown {
  switch (typeof v) {
    case "bigint":
      return v.toString();
    case "string":
      return ADDRESS.test(v) ? v.toLowerCase() : v;
    case "number":
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null; // JSON has no -0
    case "boolean":
      return v;
    case "object": {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map((x) => walk(x, true));
      const toJSON = (v as { toJSON?: () => unknown }).toJSON;
      if (typeof toJSON === "function") return walk(toJSON.call(v), inArray);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
        // "__proto__" as a plain assignment would set the prototype, not a key (JSON.parse keeps it a key).
        if (k === "__proto__") Object.defineProperty(out, k, { value: walk(x, false), enumerable: true, writable: true, configurable: true });
        else out[k] = walk(x, false);
      }
      return out;
    }
    default:
      // undefined, functions, symbols: dropped from objects (above), null inside arrays.
      return inArray ? null : undefined;
  }
}
