import fs from "node:fs";
import path from "node:path";
import { foundryBinary } from "./foundry.ts";
import { freePort, waitFor } from "./ports.ts";
import { spawnManaged } from "./process.ts";

export interface AnvilOptions {
  port?: number;
  chainId?: number;
  /** Load the chain from this file if it exists and dump it there on exit (npm start). None in tests. */
  statePath?: string;
  /** Mine a block every N seconds instead of on each transaction (a testnet's rhythm; no automine). */
  blockTime?: number;
  log?: (line: string) => void;
}

export interface AnvilHandle {
  rpcUrl: string;
  wsUrl: string;
  chainId: number;
  pid: number;
  /** Rejects if anvil dies before stop(). */
  crashed: Promise<never>;
  stop(): Promise<void>;
}

export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilHandle> {
  const port = options.port ?? (await freePort());
  const chainId = options.chainId ?? 31337;
  const args = ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId)];
  if (options.blockTime) args.push("--block-time", String(options.blockTime));
  if (options.statePath) {
    fs.mkdirSync(path.dirname(options.statePath), { recursive: true });
    // Historical states keep block-pinned reads (the indexer's) working after a reload; the interval
    // bounds what a crash loses.
    args.push("--state", options.statePath, "--preserve-historical-states", "--state-interval", "30");
  }
  const anvil = spawnManaged("anvil", foundryBinary("anvil"), args, { onLine: options.log });
  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      "anvil to answer",
      async () => {
        const res = await fetch(rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        });
        const body = (await res.json()) as { result?: string };
        return Number(body.result) === chainId;
      },
      { timeoutMs: 30_000, abort: anvil.crashed },
    );
  } catch (err) {
    await anvil.stop();
    throw err;
  }
  return { rpcUrl, wsUrl: `ws://127.0.0.1:${port}`, chainId, pid: anvil.pid, crashed: anvil.crashed, stop: () => anvil.stop("SIGINT") };
}
