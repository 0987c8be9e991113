// Runs the reactors over the indexer's journal. One leader among N API copies (a session-level
// Postgres advisory lock held on a dedicated connection); each reactor has its own cursor in
// api.reactor_cursors and reads only entries at or below Ponder's committed checkpoint, so a
// restart's rewind (which re-creates the same deterministic ids) is never seen twice.
// Reorgs: journal ids are positions (block, log index), so after a reorg new entries can take ids the
// cursor already passed. The runner keeps a fingerprint of every journal block in a window below each
// cursor and moves the cursor back to the first block that changed; the reactors' side effects are
// keyed by the event (eventKey), so what a reorg merely moved is not done twice. A reactor with
// irreversible effects sets `confirmations` and sees entries only once that many blocks lie on top.
import type { Logger } from "../lib/logger.ts";
import type { JournalRepository } from "../repositories/journal.repository.ts";
import type { LocksRepository } from "../repositories/locks.repository.ts";
import type { Reactor } from "./types.ts";

const BATCH = 200;
/** A failing entry is retried this many times (with the poll interval between), then skipped. */
const MAX_ATTEMPTS = 5;
/** Blocks below a cursor whose journal fingerprints are kept: deeper than Ponder's reorg handling (30/65). */
const REORG_WINDOW = 128n;
const BLOCK = 1_000_000_000n;

interface Seen {
  /** Lowest block from which `blocks` is complete. */
  from: bigint;
  blocks: Map<bigint, string>;
}

export interface ReactorRunner {
  /** True while this process holds the leader lock. */
  readonly leader: boolean;
  /** Starts the loop (once). */
  start(): void;
  stop(): Promise<void>;
}

export interface ReactorRunnerPorts {
  journal: Pick<JournalRepository, "cursor" | "readBatch" | "rewind" | "advance">;
  locks: Pick<LocksRepository, "withLeaderLock" | "holds" | "release">;
  logger: Logger;
  /** REACTORS_POLL_MS */
  pollMs: number;
}

/** Builds the runner over `reactors` (in order); nothing runs until start(). */
export function reactorRunner(ports: ReactorRunnerPorts, reactors: Reactor[]): ReactorRunner {
  const logger = ports.logger.child({ component: "reactors" });
  const { journal, locks, pollMs } = ports;
  const failures = new Map<string, { id: bigint; attempts: number }>();
  const seen = new Map<string, Seen>();
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  /** The first block at or below the cursor's whose journal rows differ from what the reactor saw. */
  function forkedAt(name: string, cursor: bigint, fingerprints: Map<bigint, string>): bigint | null {
    const mem = seen.get(name);
    if (!mem) return null;
    const top = cursor / BLOCK;
    const low = top - REORG_WINDOW > mem.from ? top - REORG_WINDOW : mem.from;
    for (let b = low; b <= top; b++) if (mem.blocks.get(b) !== fingerprints.get(b)) return b;
    return null;
  }

  /** Remembers the fingerprints of the blocks up to the new cursor (same snapshot as the batch). */
  function remember(name: string, before: bigint, after: bigint, fingerprints: Map<bigint, string>) {
    const top = after / BLOCK;
    const mem = seen.get(name) ?? { from: before / BLOCK - REORG_WINDOW, blocks: new Map<bigint, string>() };
    for (const b of [...mem.blocks.keys()]) if (b > before / BLOCK && b <= top && !fingerprints.has(b)) mem.blocks.delete(b);
    for (const [b, fp] of fingerprints) if (b <= top) mem.blocks.set(b, fp);
    const floor = top - REORG_WINDOW;
    for (const b of [...mem.blocks.keys()]) if (b < floor) mem.blocks.delete(b);
    if (mem.from < floor) mem.from = floor;
    seen.set(name, mem);
  }

  /** Runs one reactor over one batch; returns how many entries it consumed. */
  async function runReactor(reactor: Reactor): Promise<number> {
    const cursor = await journal.cursor(reactor.name);
    const confirmations = reactor.confirmations ?? 0;
    const batch = await journal.readBatch(cursor, BATCH, reactor.types, { confirmations, window: Number(REORG_WINDOW) });
    if (!batch) return 0; // indexer not ready
    const { entries, settledThrough, bound, fingerprints } = batch;
    const fork = forkedAt(reactor.name, cursor, fingerprints);
    if (fork !== null) {
      const back = fork * BLOCK - 1n;
      await journal.rewind(reactor.name, back);
      const mem = seen.get(reactor.name)!;
      for (const b of [...mem.blocks.keys()]) if (b >= fork) mem.blocks.delete(b);
      failures.delete(reactor.name);
      logger.warn("reorg: journal changed below the cursor; replaying from the fork", {
        reactor: reactor.name, block: fork.toString(), cursor: cursor.toString(), rewoundTo: back.toString(),
      });
      return 1;
    }
    if (entries.length || (settledThrough !== null && settledThrough > cursor)) {
      logger.debug("reactor batch", {
        reactor: reactor.name, cursor: cursor.toString(), bound: bound.toString(), count: entries.length,
        first: entries[0]?.id.toString(), last: entries.at(-1)?.id.toString(), settledThrough: settledThrough?.toString(),
      });
    }
    let last = cursor;
    for (const entry of entries) {
      if (stopped) break;
      try {
        await reactor.handle(entry, { logger: logger.child({ reactor: reactor.name }) });
      } catch (err) {
        const f = failures.get(reactor.name);
        const attempts = f && f.id === entry.id ? f.attempts + 1 : 1;
        failures.set(reactor.name, { id: entry.id, attempts });
        const fields = { reactor: reactor.name, journalId: entry.id, type: entry.type, attempts, err: err instanceof Error ? err.message : String(err) };
        if (attempts < MAX_ATTEMPTS) {
          logger.warn("reactor failed on an entry; will retry", fields);
          if (last > cursor) await journal.advance(reactor.name, last);
          remember(reactor.name, cursor, last, fingerprints);
          return 0;
        }
        logger.error("reactor skipped an entry after repeated failures", fields);
      }
      failures.delete(reactor.name);
      last = entry.id;
      await journal.advance(reactor.name, last);
    }
    // With a type filter, a short batch means nothing of interest lies between the last entry and
    // the highest journal row read in the same snapshot: skip to that row, never to the bound (rows
    // of a crash-recovered indexer may still be coming back below it).
    if (!stopped && reactor.types && entries.length < BATCH && settledThrough !== null && settledThrough > last) {
      await journal.advance(reactor.name, settledThrough);
      last = settledThrough;
    }
    remember(reactor.name, cursor, last, fingerprints);
    return entries.length;
  }

  let wasLeader = false;
  async function tick(): Promise<number> {
    const pass = await locks.withLeaderLock("reactors", async () => {
      let n = 0;
      for (const r of reactors) {
        if (stopped) break;
        try {
          n += await runReactor(r);
        } catch (err) {
          logger.warn("reactor batch failed", { reactor: r.name, err: err instanceof Error ? err.message : String(err) });
        }
      }
      return n;
    }, { sticky: true });
    if (pass.leader !== wasLeader) {
      if (pass.leader) logger.info("reactor leader elected", { reactors: reactors.map((r) => r.name) });
      else logger.warn("reactor leader connection lost");
      wasLeader = pass.leader;
    }
    return pass.leader ? pass.result : 0;
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err) => {
          logger.warn("reactor tick failed", { err: err instanceof Error ? err.message : String(err) });
          return 0;
        })
        .then((n) => schedule(n > 0 ? 0 : locks.holds("reactors") ? pollMs : pollMs * 4));
    }, ms);
  };

  return {
    get leader() {
      return locks.holds("reactors");
    },
    start() {
      if (started || stopped) return;
      started = true;
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => {});
      await locks.release("reactors");
    },
  };
}
