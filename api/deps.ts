// Everything a request may need, built once per server instance and handed to handlers via c.var.
import { createPublicClient, http, type PublicClient } from "viem";
import type { Env } from "./env.ts";
import { createDatabase, type Database } from "./db/client.ts";
import { deploymentFile, loadDeployment, type Deployment } from "./lib/deployment.ts";
import type { Logger } from "./lib/logger.ts";
import { createMetrics, type Metrics } from "./lib/metrics.ts";
import { idempotencyRepository } from "./repositories/idempotency.repository.ts";
import { noncesRepository } from "./repositories/nonces.repository.ts";
import { rateLimitRepository } from "./repositories/rate-limit.repository.ts";
import { usersRepository } from "./repositories/users.repository.ts";
import { authService } from "./services/auth.service.ts";
import { indexerService } from "./services/indexer.service.ts";
import { missionDetailsRepository } from "./repositories/mission-details.repository.ts";
import { missionsRepository } from "./repositories/missions.repository.ts";
import { missionsService } from "./services/missions.service.ts";
import { createRelayer, relayerAccount, type Relayer } from "./services/relayer.ts";
import {
  memoryRateLimitStore,
  postgresRateLimitStore,
  rateLimiter,
  type RateLimiter,
} from "./services/rate-limit.service.ts";

export interface ChainContext {
  chainId: number;
  rpcUrl: string;
  publicClient: PublicClient;
  /** Null until a deployment file exists. */
  deployment: Deployment | null;
}

export function createDeps(env: Env, logger: Logger) {
  const database: Database = createDatabase(env.DATABASE_URL);
  const db = database.db;
  const file = deploymentFile(env.DEPLOYMENT_FILE, env.CHAIN_ID);
  const deployment = loadDeployment(file);
  if (!deployment) logger.warn("no deployment file: chain endpoints answer 503", { file });
  const chainId = env.CHAIN_ID ?? deployment?.chainId ?? 31337;
  if (deployment && deployment.chainId !== chainId) {
    throw new Error(`CHAIN_ID ${chainId} does not match the deployment file's chainId ${deployment.chainId}`);
  }
  const publicClient = createPublicClient({
    transport: http(env.RPC_URL, { timeout: 10_000, retryCount: 1 }),
  }) as PublicClient;
  const chain: ChainContext = { chainId, rpcUrl: env.RPC_URL, publicClient, deployment };

  const repos = {
    users: usersRepository(db),
    nonces: noncesRepository(db),
    idempotency: idempotencyRepository(db),
    rateLimit: rateLimitRepository(db),
    missions: missionsRepository(database.pool, env.CHAIN_SCHEMA),
    missionDetails: missionDetailsRepository(db),
  };
  const metrics: Metrics = createMetrics();
  const indexer = indexerService({ url: env.INDEXER_URL, chainId, waitMs: env.INDEXER_WAIT_MS });
  let relayer: Relayer | null = null;
  if (deployment) {
    const account = relayerAccount(env.RELAYER_PRIVATE_KEY as `0x${string}` | undefined, chainId);
    if (account.address.toLowerCase() !== deployment.relayer.toLowerCase()) {
      logger.warn("the relayer key is not the deployment's relayer: users must approve it as operator", {
        relayer: account.address,
      });
    }
    relayer = createRelayer({
      account, chainId, rpcUrl: env.RPC_URL, escrow: deployment.contracts.MissionEscrow.address,
      publicClient, database, indexer, logger, metrics,
      indexerWaitMs: env.INDEXER_WAIT_MS, crashAfterBroadcast: env.RELAYER_CRASH_AFTER_BROADCAST,
    });
  }
  const port = env.PORT;
  const domain = env.SIWE_DOMAIN ?? (port === 0 ? "localhost" : `localhost:${port}`);
  const services = {
    auth: authService({
      config: {
        jwtSecret: env.JWT_SECRET,
        issuer: env.JWT_ISSUER,
        audience: env.JWT_AUDIENCE,
        domain,
        uri: env.SIWE_URI ?? `http://${domain}`,
        chainId,
        nonceTtlSeconds: env.AUTH_NONCE_TTL_SECONDS,
      },
      nonces: repos.nonces,
      users: repos.users,
      publicClient,
      logger,
    }),
    indexer,
    missions: missionsService({
      chain, relayer, missions: repos.missions, details: repos.missionDetails, users: repos.users,
    }),
  };
  const store = env.RATE_LIMIT_STORE === "postgres" ? postgresRateLimitStore(repos.rateLimit) : memoryRateLimitStore();
  const limiter: RateLimiter = rateLimiter(store, {
    anonymous: env.RATE_LIMIT_ANON_PER_MIN,
    user: env.RATE_LIMIT_USER_PER_MIN,
    premium: env.RATE_LIMIT_PREMIUM_PER_MIN,
  });
  return {
    env,
    logger,
    database,
    chain,
    repos,
    services,
    rateLimiter: limiter,
    metrics,
    relayer,
    close: () => database.close(),
  };
}

export type Deps = ReturnType<typeof createDeps>;
