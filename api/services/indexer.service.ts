// How far the Ponder indexer has got, from its HTTP API (/ready, /status). Used by /health and by
// the relayer's read-your-writes wait.
import { AppError } from "../lib/errors.ts";

const POLL_MS = 10;

export interface IndexerStatus {
  ready: boolean;
  block: bigint | null;
}

export function indexerService(opts: { url: string; chainId: number; waitMs: number }) {
  const get = (path: string) => fetch(`${opts.url}${path}`, { signal: AbortSignal.timeout(2_000) });

  async function indexedBlock(): Promise<bigint | null> {
    const res = await get("/status");
    if (!res.ok) return null;
    const body = (await res.json()) as Record<string, { id?: number; block?: { number?: number | string } }>;
    const chain = Object.values(body).find((c) => Number(c?.id) === opts.chainId) ?? Object.values(body)[0];
    const n = chain?.block?.number;
    return n === undefined || n === null ? null : BigInt(n);
  }

  // Read-your-writes: one shared poller for every waiting write, not one loop per request.
  const waiters: { block: bigint; until: number; resolve(ok: boolean): void }[] = [];
  let polling = false;
  async function poll() {
    polling = true;
    try {
      while (waiters.length) {
        const b = await indexedBlock().catch(() => null);
        const now = Date.now();
        for (let i = waiters.length - 1; i >= 0; i--) {
          const w = waiters[i]!;
          if ((b !== null && b >= w.block) || now >= w.until) {
            waiters.splice(i, 1);
            w.resolve(b !== null && b >= w.block);
          }
        }
        if (waiters.length) await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } finally {
      polling = false;
    }
  }
  function waitForBlock(block: bigint): Promise<boolean> {
    return new Promise((resolve) => {
      waiters.push({ block, until: Date.now() + opts.waitMs, resolve });
      if (!polling) void poll();
    });
  }

  return {
    indexedBlock,
    async status(): Promise<IndexerStatus> {
      try {
        const ready = (await get("/ready")).status === 200;
        return { ready, block: ready ? await indexedBlock() : null };
      } catch {
        return { ready: false, block: null };
      }
    },
    /** Resolves once the indexer has reached `block` (read-your-writes); gives up after waitMs. */
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
