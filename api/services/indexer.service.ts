// How far the Ponder indexer has got, from its HTTP API (/ready, /status). Used by /health and by
// the relayer's read-your-writes wait.
import { AppError } from "../lib/errors.ts";

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
    async waitForBlock(block: bigint): Promise<boolean> {
      const deadline = Date.now() + opts.waitMs;
      for (;;) {
        const b = await indexedBlock().catch(() => null);
        if (b !== null && b >= block) return true;
        if (Date.now() >= deadline) return false;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
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
