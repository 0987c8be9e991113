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

export function indexerService(opts: { url: string; chainId: number; waitMs: number; checkpoints?: CheckpointSource }) {
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
  const waiters: { block: bigint; until: number; resolve(ok: boolean): void; note: (name: string, at?: number) => void }[] = [];
  let lastNotify = 0;
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
        const b = await current();
        const now = Date.now();
        for (let i = waiters.length - 1; i >= 0; i--) {
          const w = waiters[i]!;
          if ((b !== null && b >= w.block) || now >= w.until) {
            waiters.splice(i, 1);
            w.note("w:notify", heardAt);
            w.note("w:read", readAt);
            w.resolve(b !== null && b >= w.block);
          }
        }
        if (!waiters.length || notified !== seen) continue; // a commit came during the read: read again
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(t);
            wake = null;
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
  function waitForBlock(block: bigint, timeoutMs = opts.waitMs): Promise<boolean> {
    return new Promise((resolve) => {
      waiters.push({ block, until: Date.now() + timeoutMs, resolve, note: tracer() });
      if (!polling) void poll();
    });
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
