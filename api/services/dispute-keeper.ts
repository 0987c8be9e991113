// The dispute keeper: every DISPUTE_KEEPER_INTERVAL_MS it finalizes disputes whose deadline passed
// (appeal window, appeal decision, dispute timeout) and releases those whose resolver missed the
// resolution deadline. N API copies: only the holder of a Postgres advisory lock works a tick, so
// transactions are not double-sent (a lost race would only revert in simulation anyway).
import { missionEscrowAbi } from "../../abis/index.ts";
import type { Deps } from "../deps.ts";
import { disputesService } from "./disputes.service.ts";

const KEEPER_LOCK = 7_301_006;
const DISPUTE_TIMEOUT_WINDOW = 4; // Missions.Window.DisputeTimeout
const cache = new WeakMap<Deps, ReturnType<typeof build>>();

export function disputeKeeper(deps: Deps) {
  let k = cache.get(deps);
  if (!k) {
    k = build(deps);
    cache.set(deps, k);
  }
  return k;
}

function build(deps: Deps) {
  const { logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;

  /** One pass; returns what it did (for tests and logs). Skipped when another copy holds the lock. */
  async function tick(): Promise<{ leader: boolean; finalized: string[]; released: string[] }> {
    const out = { leader: false, finalized: [] as string[], released: [] as string[] };
    const escrow = deps.chain.deployment?.contracts.MissionEscrow.address;
    if (!escrow || !deps.relayer) return out;
    const client = await deps.database.pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [KEEPER_LOCK]);
      if (!rows[0]?.ok) return out;
      out.leader = true;
      const pc = deps.chain.publicClient;
      const [block, timeout] = await Promise.all([
        pc.getBlock(),
        pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "windowOf", args: [DISPUTE_TIMEOUT_WINDOW] }),
      ]);
      const svc = disputesService(deps);
      for (const d of await svc.repo.due(block.timestamp, timeout as bigint)) {
        // An Investigating dispute past its resolution deadline is released (back to the queue);
        // past the dispute timeout too, finalize applies the default outcome instead.
        const fns = d.state === "Investigating" ? ["finalizeDispute", "releaseDispute"] : ["finalizeDispute"];
        for (const fn of fns) {
          try {
            await deps.relayer.send(fn, [BigInt(d.on_chain_id)]);
            (fn === "finalizeDispute" ? out.finalized : out.released).push(d.on_chain_id);
            break;
          } catch (err) {
            const code = (err as { code?: string }).code;
            if (code !== "DEADLINE_NOT_REACHED" && code !== "INVALID_DISPUTE_STATE") {
              logger.warn("dispute keeper: send failed", { fn, dispute: d.on_chain_id, code });
            }
          }
        }
      }
      return out;
    } finally {
      await client.query("COMMIT").catch(() => {});
      client.release();
    }
  }

  const safeTick = () => {
    if (running) return running;
    running = tick()
      .then((r) => {
        if (r.finalized.length || r.released.length) logger.info("dispute keeper", r);
      })
      .catch((err: unknown) => logger.warn("dispute keeper tick failed", { err: err instanceof Error ? err.message : String(err) }))
      .finally(() => (running = null));
    return running;
  };

  return {
    tick,
    start() {
      const ms = deps.env.DISPUTE_KEEPER_INTERVAL_MS;
      if (ms <= 0 || timer) return;
      timer = setInterval(() => void safeTick(), ms);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
