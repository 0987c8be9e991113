// The deadline keeper: every KEEPER_INTERVAL_MS one pass acts on every deadline that has passed:
// missions (expire, release after review), disputes (finalize, release) and rating claims left
// pending by a crash. N API copies: only the holder of one Postgres advisory lock works a pass, so
// each deadline gets one transaction; every transaction goes through the relayer, which simulates
// it first (nothing is sent that would revert).
import type { Address, PublicClient } from "viem";
import type { Logger } from "../../lib/logger.ts";
import type { DeadlinesRepository } from "../../repositories/deadlines.repository.ts";
import type { LocksRepository } from "../../repositories/locks.repository.ts";
import type { RatingSweeper, RatingSweepResult } from "../profile/rating-sweeper.ts";
import type { Relayer } from "../../lib/ports.ts";
import { chainNow } from "./chain-clock.ts";
import { disputeDeadlines, type DisputeDeadlinesResult } from "./dispute-deadlines.ts";
import { missionDeadlines, type MissionDeadlinesResult } from "./mission-deadlines.ts";

export interface KeeperPass {
  leader: boolean;
  /** The chain time the pass decided by (unix seconds). */
  now?: bigint;
  missions: MissionDeadlinesResult;
  disputes: DisputeDeadlinesResult;
  ratings: RatingSweepResult;
}

export interface DeadlineKeeperDeps {
  locks: Pick<LocksRepository, "withLeaderLock">;
  chainId: number;
  publicClient: PublicClient;
  /** Null without a deployment or a relayer key: the keeper then has nothing to do. */
  escrow: Address | null;
  relayer: Pick<Relayer, "send"> | null;
  deadlines: DeadlinesRepository;
  /** Absent when ratings cannot be attested (no deployment). */
  ratings: RatingSweeper | null;
  logger: Logger;
  intervalMs: number;
}

export interface KeeperJobs {
  missions?: boolean;
  disputes?: boolean;
  ratings?: boolean;
}
const ALL: KeeperJobs = { missions: true, disputes: true, ratings: true };

const empty = (): KeeperPass => ({
  leader: false,
  missions: { expired: [], released: [], skipped: [] },
  disputes: { finalized: [], released: [] },
  ratings: { finished: [], released: [] },
});

export function deadlineKeeper(deps: DeadlineKeeperDeps) {
  const { logger } = deps;
  const jobs = deps.escrow && deps.relayer
    ? (() => {
        const common = { escrow: deps.escrow, publicClient: deps.publicClient, relayer: deps.relayer, logger };
        return {
          missions: missionDeadlines({ ...common, repo: deps.deadlines }),
          disputes: disputeDeadlines({ ...common, repo: deps.deadlines }),
        };
      })()
    : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<KeeperPass> | null = null;

  /** One pass; returns what it did (tests and logs). A copy that does not hold the lock does nothing. */
  async function tick(only: KeeperJobs): Promise<KeeperPass> {
    if (!jobs) return empty();
    const pass = await deps.locks.withLeaderLock("keeper", async () => {
      const out = empty();
      out.leader = true;
      out.now = await chainNow(deps.publicClient, deps.chainId);
      if (only.missions) out.missions = await jobs.missions(out.now);
      if (only.disputes) out.disputes = await jobs.disputes(out.now);
      if (only.ratings && deps.ratings) out.ratings = await deps.ratings.sweep();
      return out;
    });
    return pass.leader ? pass.result : empty();
  }

  /** A pass unless one is already running in this process (then that one). `only`: some kinds of deadline. */
  function once(only: KeeperJobs = ALL): Promise<KeeperPass> {
    running ??= tick(only)
      .then((r) => {
        const acted = r.missions.expired.length + r.missions.released.length + r.disputes.finalized.length
          + r.disputes.released.length + r.ratings.finished.length + r.ratings.released.length;
        if (acted) logger.info("deadline keeper", { missions: r.missions, disputes: r.disputes, ratings: r.ratings });
        return r;
      })
      .finally(() => (running = null));
    return running;
  }

  return {
    tick: once,
    start() {
      if (deps.intervalMs <= 0 || timer || !jobs) return;
      timer = setInterval(() => {
        once(ALL).catch((err: unknown) => logger.warn("deadline keeper pass failed", { err: err instanceof Error ? err.message : String(err) }));
      }, deps.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
export type DeadlineKeeper = ReturnType<typeof deadlineKeeper>;
