// Part of the composition root (api/deps.ts): the relayers and their outbox repositories. The pool
// sends every chain write; the rating sponsor pays the gas of rating attestations (a key of its own
// when SPONSOR_PRIVATE_KEY is set, else the pool). Every key's api.relayer_outbox rows go through
// one repository built here; the housekeeping sweep purges them (api/deps/workers.ts).
import { createPublicClient, type Account, type Hex, type PublicClient } from "viem";
import { rpcTransport } from "../lib/rpc-fetch.ts";
import type { Database } from "../db/client.ts";
import { relayerKeys, type Env } from "../env.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import { outboxRepository, type OutboxRepository } from "../repositories/outbox.repository.ts";
import type { RateLimitRepository } from "../repositories/rate-limit.repository.ts";
import type { IndexerService } from "../services/indexer.service.ts";
import {
  createRelayer, createRelayerPool, feeCapWei, relayBudget, relayerAccount, relayerAccounts, type FeePolicy,
} from "../services/relayer/index.ts";

export interface Relayers {
  /** The key pool; null without a deployment (chain writes then answer 503). */
  pool: Relayer | null;
  /** Pays rating attestations' gas: its own key, else the pool; null without a deployment. */
  sponsor: Relayer | null;
  /** The address users approve (the executor, else the pool's one key); null without a deployment. */
  operator: `0x${string}` | null;
  /** RELAYER_PRIVATE_KEY(S)[0]: the rating attester's key (none: anvil's account 0 on 31337). */
  primaryKey: Hex | undefined;
  fees: FeePolicy;
  /** Every key's outbox repository (pool keys and the sponsor's). */
  outboxes: OutboxRepository[];
}

export function buildRelayers(o: {
  env: Env;
  chain: ChainContext;
  database: Database;
  indexer: IndexerService;
  logger: Logger;
  metrics: Metrics;
  rateLimit: Pick<RateLimitRepository, "hitWindow" | "unhitWindow" | "purgePrefix">;
  /** Read models derived from indexed rows catch up with a write before it answers. */
  onIndexed: (block: bigint) => Promise<void>;
}): Relayers {
  const { env, chain, logger } = o;
  const { chainId, deployment } = chain;
  const fees: FeePolicy = { capWei: feeCapWei(env.RELAYER_MAX_FEE_GWEI, chainId), waitMs: env.RELAYER_FEE_WAIT_MS };
  const keys = relayerKeys(env);
  const outboxes: OutboxRepository[] = [];
  const outboxOf = (account: Account): OutboxRepository => {
    const outbox = outboxRepository(o.database.pool, chainId, account.address);
    outboxes.push(outbox);
    return outbox;
  };
  if (!deployment) return { pool: null, sponsor: null, operator: null, primaryKey: keys[0], fees, outboxes };

  const accounts = relayerAccounts(keys, chainId);
  if (accounts[0]!.address.toLowerCase() !== deployment.relayer.toLowerCase()) {
    logger.warn(
      deployment.executor
        ? "the primary relayer key is not the deployment's relayer: it lacks the service's roles (faucet, mints, appeals)"
        : "the relayer key is not the deployment's relayer: users must approve it as operator",
      { relayer: accounts[0]!.address },
    );
  }
  const common = {
    chainId, rpcUrl: env.RPC_URL, escrow: deployment.contracts.MissionEscrow.address,
    // Its own client, not batched: estimates and simulations are the slow calls of a write, and in one
    // JSON-RPC batch with other requests' reads every answer waits for the slowest.
    publicClient: createPublicClient({ transport: rpcTransport(env.RPC_URL, { timeout: 10_000, retryCount: 1 }) }) as PublicClient,
    indexer: o.indexer, logger, metrics: o.metrics, fees,
  };
  const pool = createRelayerPool({
    ...common,
    keys: accounts.map((account) => ({ account, outbox: outboxOf(account) })),
    executor: deployment.executor ?? null,
    crashAfterBroadcast: env.RELAYER_CRASH_AFTER_BROADCAST,
    replaceAfterBlocks: env.RELAYER_REPLACE_AFTER_BLOCKS,
    balance: { minWei: BigInt(env.RELAYER_MIN_BALANCE_WEI), everyMs: env.RELAYER_BALANCE_EVERY_MS },
    onIndexed: o.onIndexed,
    // Always in PostgreSQL (whatever RATE_LIMIT_STORE says): every API copy spends one budget.
    budget: relayBudget({ hit: o.rateLimit.hitWindow, unhit: o.rateLimit.unhitWindow, purge: o.rateLimit.purgePrefix }, env.RELAYER_TX_PER_HOUR),
  });
  let sponsor: Relayer = pool;
  if (env.SPONSOR_PRIVATE_KEY) {
    const account = relayerAccount(env.SPONSOR_PRIVATE_KEY as Hex, chainId);
    sponsor = createRelayer({ ...common, account, outbox: outboxOf(account) });
  }
  // The one address users approve as their operator (OperatorRegistry): the deployment's executor
  // (every pool key forwards through it), else (older files) the one key that sends.
  const operator = deployment.executor ?? pool.address;
  return { pool, sponsor, operator, primaryKey: keys[0], fees, outboxes };
}
