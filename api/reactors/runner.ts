// Runs the reactors over the indexer's journal. One leader among N API copies (a session-level
// Postgres advisory lock held on a dedicated connection); each reactor has its own cursor in
// api.reactor_cursors and reads only entries at or below Ponder's committed checkpoint, so a
// restart's rewind (which re-creates the same deterministic ids) is never seen twice.
import type { Deps } from "../deps.ts";
import type pg from "pg";
import { journalRepository } from "../repositories/journal.repository.ts";
import type { Reactor } from "./types.ts";

const REACTOR_LOCK = 7_301_005;
const BATCH = 200;
/** A failing entry is retried this many times (with the poll interval between), then skipped. */
const MAX_ATTEMPTS = 5;

export interface ReactorRunner {
  /** True while this process holds the leader lock. */
  readonly leader: boolean;
  stop(): Promise<void>;
}

export function startReactorRunner(deps: Deps, reactors: Reactor[], opts: { pollMs?: number } = {}): ReactorRunner {
  const logger = deps.logger.child({ component: "reactors" });
  const journal = journalRepository(deps.database.pool, deps.env.CHAIN_SCHEMA);
  const pollMs = opts.pollMs ?? deps.env.REACTORS_POLL_MS;
  const failures = new Map<string, { id: bigint; attempts: number }>();
  let lockClient: pg.PoolClient | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function acquire(): Promise<boolean> {
    if (lockClient) {
      try {
        await lockClient.query("SELECT 1");
        return true;
      } catch {
        lockClient.release(true);
        lockClient = null; // connection lost: so is the lock
        logger.warn("reactor leader connection lost");
      }
    }
    const client = await deps.database.pool.connect();
    try {
      const { rows } = await client.query("SELECT pg_try_advisory_lock($1) AS ok", [REACTOR_LOCK]);
      if (rows[0]?.ok) {
        client.on("error", () => {});
        lockClient = client;
        logger.info("reactor leader elected", { reactors: reactors.map((r) => r.name) });
        return true;
      }
    } catch {
      // fall through
    }
    client.release();
    return false;
  }

  /** Runs one reactor over one batch; returns how many entries it consumed. */
  async function runReactor(reactor: Reactor): Promise<number> {
    const cursor = await journal.cursor(reactor.name);
    const batch = await journal.readBatch(cursor, BATCH, reactor.types);
    if (!batch) return 0; // indexer not ready
    const { entries, settledThrough, bound } = batch;
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
        await reactor.handle(entry, { deps, logger: logger.child({ reactor: reactor.name }) });
      } catch (err) {
        const f = failures.get(reactor.name);
        const attempts = f && f.id === entry.id ? f.attempts + 1 : 1;
        failures.set(reactor.name, { id: entry.id, attempts });
        const fields = { reactor: reactor.name, journalId: entry.id, type: entry.type, attempts, err: err instanceof Error ? err.message : String(err) };
        if (attempts < MAX_ATTEMPTS) {
          logger.warn("reactor failed on an entry; will retry", fields);
          if (last > cursor) await journal.advance(reactor.name, last);
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
    }
    return entries.length;
  }

  async function tick(): Promise<number> {
    if (!(await acquire())) return 0;
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
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((err) => {
          logger.warn("reactor tick failed", { err: err instanceof Error ? err.message : String(err) });
          return 0;
        })
        .then((n) => schedule(n > 0 ? 0 : lockClient ? pollMs : pollMs * 4));
    }, ms);
  };
  schedule(0);

  return {
    get leader() {
      return lockClient !== null;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => {});
      if (lockClient) {
        await lockClient.query("SELECT pg_advisory_unlock($1)", [REACTOR_LOCK]).catch(() => {});
        lockClient.release();
        lockClient = null;
      }
    },
  };
}
