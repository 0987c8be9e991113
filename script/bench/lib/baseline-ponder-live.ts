// B5's Ponder baseline: the minimal Ponder app (script/bench/baseline-ponder, one insert per escrow
// event) following a live chain over the same transport as our indexer (websocket heads), in the
// bench stack's database. The best a minimal Ponder app does from a receipt to a visible row.
import { freePort, waitFor } from "../../lib/ports.ts";
import { baselineApp, spawnPonder } from "./ponder-backfill.ts";

export interface LivePonder {
  /** The schema of its table escrow_events (name, mission_id, ...). */
  schema: string;
  stop(): Promise<void>;
}

export async function startBaselinePonder(o: {
  scratchDir: string;
  databaseUrl: string;
  rpcUrl: string;
  wsUrl: string;
  deploymentFile: string;
  schema: string;
  /** Ponder's lines (default: dropped; the last 40 are in a start failure's message). */
  log?: (line: string) => void;
}): Promise<LivePonder> {
  const app = baselineApp(o.scratchDir);
  const port = await freePort();
  const child = spawnPonder(app, { ...o, port, hostname: "127.0.0.1" }, { tailLines: 40, onLine: o.log });
  const url = `http://127.0.0.1:${port}`;
  try {
    const ready = async () => (await fetch(`${url}/ready`).catch(() => null))?.status === 200;
    // /ready: the backfill reached the finalized block (the head, on anvil) and live indexing began.
    // (/status may stay below the head: its checkpoint does not move over blocks without events.)
    await waitFor("the baseline Ponder app", ready, {
      timeoutMs: 180_000,
      intervalMs: 50,
      abort: child.crashed,
    });
  } catch (err) {
    await child.stop("SIGKILL");
    throw new Error(`${(err as Error).message}\n${child.tail()}`);
  }
  return { schema: o.schema, stop: () => child.stop("SIGINT", 20_000) };
}
