// How far the Ponder indexer has got, from its HTTP API (/ready, /status) or its checkpoint in
// PostgreSQL. Used by /health and by the relayer's read-your-writes wait.
import { AppError } from "../lib/errors.ts";
import { tracer } from "../lib/stage-trace.ts";
import type { CheckpointSource } from "../repositories/indexer-checkpoint.repository.ts";

const POLL_MS = 10;
/** With Ponder's NOTIFY heard: a read this often anyway (a notification is never lost on a live connection). */
const SAFETY_MS = 250;
const RELISTEN_MS = 1_000;

export interface IndexerStatus {
  ready: boolean;
  block: bigint | null;
}

/** What a read-your-writes wait with the read model's catch-up folded in learned (`waitCaughtUp`). */
export interface CaughtUp {
  /** The indexer reached the block in time. */
  indexed: boolean;
  /** The read model's catch-up of the block ran in the transaction that read the checkpoint (no second one needed). */
  caughtUp: boolean;
}

export function indexerService(opts: {
  url: string;
  chainId: number;
  waitMs: number;
  checkpoints?: CheckpointSource;
  /**
   * The read model's catch-up of `blocks` with Ponder's checkpoint read first in the same transaction
   * (its block, null before the first). Folded into the wait on each NOTIFY (`waitCaughtUp`): one round
   * trip where a checkpoint read, then the catch-up, took two. On a block not yet indexed it changes
   * nothing: the journal rows commit with Ponder's checkpoint.
   */
  catchUp?: (blocks: bigint[]) => Promise<bigint | null>;
}) {
  const get = (path: string) => fetch(`${opts.url}${path}`, { signal: AbortSignal.timeout(2_000) });

  async function indexedBlock(): Promise<bigint | null> {
    const res = await get("/status");
    if (!res.ok) return null;
    const body = (await res.json()) as Record<string, { id?: number; block?: { number?: number | string } }>;
    const chain = Object.values(body).find((c) => Number(c?.id) === opts.chainId) ?? Object.values(body)[0];
    const n = chain?.block?.number;
    return n === undefined || n === null ? null : BigInt(n);
  }

  // Read-your-writes: one shared loop for every waiting write, not one per request. With a checkpoint
  // source it reads PostgreSQL (not Ponder's HTTP /status) and sleeps until Ponder's NOTIFY at the
  // commit of an indexed block; it polls every POLL_MS until a notification has been heard on the
  // connection (a Ponder without the views schema's trigger never sends one), and every SAFETY_MS after.
  const src = opts.checkpoints;
  type Waiter = { block: bigint; until: number; resolve(r: CaughtUp): void; note: (name: string, at?: number) => void; catchUp?: boolean; probe?: () => void };
  const waiters: Waiter[] = [];
  let lastNotify = 0;
  // The last checkpoint read and the notification count it was read at. While the LISTEN is open and
  // has been heard, Ponder's realtime indexing does not move the checkpoint without a NOTIFY (sent at
  // the commit, delivered after it): a waiter arriving with no NOTIFY since that read, for a block
  // above it, sleeps until the NOTIFY without a read of its own (a read then could only say "not
  // yet"). Ponder's backfill moves it silently: then the SAFETY_MS read finds it, as before. A read
  // that would resolve a waiter is never skipped, and a wake (NOTIFY, timer) always reads.
  let lastRead: { block: bigint | null; seen: number } | null = null;
  let woken = false;
  let polling = false;
  let heard = false;
  let notified = 0;
  let wake: (() => void) | null = null;
  let listening: "no" | "opening" | "open" = "no";
  let retryAt = 0;
  let held: { close(): void } | null = null;
  let closed = false;
  function ensureListening() {
    if (!src || closed || listening !== "no" || Date.now() < retryAt) return;
    listening = "opening";
    src
      .listen(
        () => {
          lastNotify = performance.now();
          heard = true;
          notified++;
          wake?.();
        },
        () => {
          listening = "no";
          held = null;
          heard = false;
          retryAt = Date.now() + RELISTEN_MS;
          wake?.();
        },
      )
      .then(
        (l) => {
          // The LISTEN holds a pool connection: closing the API gives it back (pool.end() waits for it).
          if (closed) return l.close();
          held = l;
          listening = "open";
        },
        () => {
          listening = "no";
          retryAt = Date.now() + RELISTEN_MS;
        },
      );
  }
  const current = async (): Promise<bigint | null> => {
    if (src) {
      const b = await src.block().catch(() => undefined);
      if (b !== undefined) return b;
    }
    return indexedBlock().catch(() => null);
  };
  async function poll() {
    polling = true;
    try {
      while (waiters.length) {
        ensureListening();
        const seen = notified;
        const readAt = performance.now();
        const heardAt = lastNotify;
        const trusted = heard && listening === "open";
        const last = lastRead;
        const fromLast = !woken && trusted && last !== null && last.seen === seen && waiters.every((w) => last.block === null || last.block < w.block);
        woken = false;
        let b: bigint | null;
        let caught: bigint | null = null; // the checkpoint the folded catch-up read
        let foldedBlocks: ReadonlySet<bigint> = new Set(); // the blocks that catch-up projected
        if (fromLast) b = last!.block;
        else {
          // Folded only for the block Ponder indexes next (it commits one block at a time, with a NOTIFY
          // each): waits further ahead would run a catch-up, and their probes, at every block before theirs.
          const next = last?.block != null ? last.block + 1n : null;
          const folding = trusted && opts.catchUp && next !== null ? waiters.filter((w) => w.catchUp && w.block <= next) : [];
          const r = folding.length ? await foldedRead(folding) : undefined;
          if (r !== undefined) {
            b = caught = r;
            foldedBlocks = new Set(folding.map((w) => w.block));
          }
          else b = await current();
          lastRead = { block: b, seen };
        }
        const now = Date.now();
        for (let i = waiters.length - 1; i >= 0; i--) {
          const w = waiters[i]!;
          if ((b !== null && b >= w.block) || now >= w.until) {
            waiters.splice(i, 1);
            w.note("w:notify", heardAt);
            w.note("w:read", readAt);
            const indexed = b !== null && b >= w.block;
            // Caught up only if that catch-up projected this waiter's own block: a checkpoint past it
            // (Ponder indexed further meanwhile) says nothing of a block the catch-up did not name.
            w.resolve({ indexed, caughtUp: indexed && !!w.catchUp && caught !== null && caught >= w.block && foldedBlocks.has(w.block) });
          }
        }
        if (!waiters.length || notified !== seen) continue; // a commit came during the read: read again
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(t);
            wake = null;
            woken = true;
            resolve();
          };
          const t = setTimeout(done, heard && listening === "open" ? SAFETY_MS : POLL_MS);
          wake = done;
        });
      }
    } finally {
      polling = false;
    }
  }
  /** The folded catch-up for these waiters' blocks (each waiter's `probe` started beside it); undefined: failed. */
  async function foldedRead(ws: Waiter[]): Promise<bigint | null | undefined> {
    for (const w of ws) w.probe?.();
    return opts.catchUp!([...new Set(ws.map((w) => w.block))]).catch(() => undefined);
  }
  function wait(w: Omit<Waiter, "resolve" | "note">): Promise<CaughtUp> {
    return new Promise((resolve) => {
      waiters.push({ ...w, resolve, note: tracer() });
      if (!polling) void poll();
      // The loop sleeps until the next NOTIFY, but its last read already has this block: read now.
      else if (wake && lastRead?.block != null && lastRead.block >= w.block) wake();
    });
  }
  function waitForBlock(block: bigint, timeoutMs = opts.waitMs): Promise<boolean> {
    return wait({ block, until: Date.now() + timeoutMs }).then((r) => r.indexed);
  }
  /**
   * waitForBlock with the read model's catch-up of `block` folded into the checkpoint read (when a
   * catch-up is configured and Ponder's NOTIFY is heard; otherwise `caughtUp` is false and the caller
   * runs its own). `probe` runs at each folded read, beside it: work that only reads the indexed rows.
   */
  function waitCaughtUp(block: bigint, probe?: () => void, timeoutMs = opts.waitMs): Promise<CaughtUp> {
    return wait({ block, until: Date.now() + timeoutMs, catchUp: true, probe });
  }

  return {
    indexedBlock,
    /** Gives the LISTEN connection back (before the pool is closed). */
    close() {
      closed = true;
      held?.close();
      held = null;
    },
    async status(): Promise<IndexerStatus> {
      try {
        const ready = (await get("/ready")).status === 200;
        return { ready, block: ready ? await indexedBlock() : null };
      } catch {
        return { ready: false, block: null };
      }
    },
    /** Resolves once the indexer has reached `block` (read-your-writes); gives up after waitMs (or `timeoutMs`). */
    waitForBlock,
    waitCaughtUp,
    /** Proxies a request to Ponder's GraphQL endpoint. */
    async graphql(req: Request, search: string): Promise<Response> {
      const headers = new Headers();
      for (const h of ["content-type", "accept"]) {
        const v = req.headers.get(h);
        if (v) headers.set(h, v);
      }
      try {
        const res = await fetch(`${opts.url}/graphql${search}`, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer(),
          signal: AbortSignal.timeout(15_000),
        });
        const out = new Headers();
        const type = res.headers.get("content-type");
        if (type) out.set("content-type", type);
        return new Response(res.body, { status: res.status, headers: out });
      } catch {
        throw new AppError("INDEXER_UNAVAILABLE", "The indexer's GraphQL endpoint is unreachable");
      }
    },
  };
}
export type IndexerService = ReturnType<typeof indexerService>;
