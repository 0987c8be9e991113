// The composition root: every repository, service, relayer and worker is built here (with
// api/deps/relayers.ts and api/deps/workers.ts), once per server instance, from narrow interfaces
// (api/lib/ports.ts), and handed to handlers via c.var.deps. Nothing else constructs one; api/app.ts
// starts and stops the workers (docs/decisions.md "One composition root").
import { createPublicClient, type PublicClient } from "viem";
import { rpcTransport } from "./lib/rpc-fetch.ts";
import { knownChain } from "../indexer/lib/known-chains.ts";
import { EnvError, type Env } from "./env.ts";
import { chainTables } from "./db/chain.ts";
import { API_POOL, createDatabase, prefill, type Database } from "./db/client.ts";
import { deploymentFile, loadDeployment } from "./deployment.ts";
import type { Logger } from "./lib/logger.ts";
import { createMetrics, type Metrics } from "./lib/metrics.ts";
import { AppError } from "./lib/errors.ts";
import type { ChainContext } from "./lib/ports.ts";
import { idempotencyRepository } from "./repositories/idempotency.repository.ts";
import { checkpointBlockOf, indexerCheckpointRepository } from "./repositories/indexer-checkpoint.repository.ts";
import { noncesRepository } from "./repositories/nonces.repository.ts";
import { sessionsRepository } from "./repositories/sessions.repository.ts";
import { rateLimitRepository } from "./repositories/rate-limit.repository.ts";
import { usersRepository } from "./repositories/users.repository.ts";
import { notificationsRepository } from "./repositories/notifications.repository.ts";
import { pushRepository } from "./repositories/push.repository.ts";
import { webhooksRepository } from "./repositories/webhooks.repository.ts";
import { webhooksService } from "./services/webhooks/webhooks.service.ts";
import { authService } from "./services/auth.service.ts";
import { indexerService } from "./services/indexer.service.ts";
import { escrowStablecoin } from "./services/stablecoin.ts";
import { missionDetailsRepository } from "./repositories/mission-details.repository.ts";
import { missionsRepository } from "./repositories/missions.repository.ts";
import { settlementsRepository } from "./repositories/settlements.repository.ts";
import { deadlinesRepository } from "./repositories/deadlines.repository.ts";
import { ratingClaimsRepository } from "./repositories/rating-claims.repository.ts";
import { missionsService } from "./services/missions.service.ts";
import { relayerAccount } from "./services/relayer/index.ts";
import { faucetRepository } from "./repositories/faucet.repository.ts";
import { faucetService } from "./services/wallet/faucet.service.ts";
import { walletSetupService } from "./services/wallet/wallet-setup.service.ts";
import { discoveryRepository, discoveryWarmStatements } from "./repositories/discovery.repository.ts";
import { discoveryFeedRepository } from "./repositories/discovery-feed.repository.ts";
import { discoveryFeedSourceRepository } from "./repositories/discovery-feed-source.repository.ts";
import { createFeedIndex } from "./services/discovery/feed-index/index.ts";
import { discoveryChangesRepository, discoveryReadModelRepository } from "./repositories/discovery-read-model.repository.ts";
import { discoveryWriteQueue } from "./repositories/discovery-write-queue.ts";
import { journalRepository } from "./repositories/journal.repository.ts";
import { guildsRepository } from "./repositories/guilds.repository.ts";
import { governanceRepository } from "./repositories/governance.repository.ts";
import { vaultRepository } from "./repositories/vault.repository.ts";
import { privacyRepository } from "./repositories/privacy.repository.ts";
import { privacyService } from "./services/privacy.ts";
import { disputesRepository } from "./repositories/disputes.repository.ts";
import { profileRepository } from "./repositories/profile.repository.ts";
import { locksRepository } from "./repositories/locks.repository.ts";
import { healthRepository } from "./repositories/health.repository.ts";
import { discoveryService } from "./services/discovery/discovery.service.ts";
import { guildInvites } from "./services/community.ts";
import { guildsService } from "./services/guilds.service.ts";
import { notificationsService } from "./services/notifications.service.ts";
import { webPushDelivery } from "./services/push-delivery.ts";
import { vaultService } from "./services/vault.service.ts";
import { governanceService } from "./services/governance/governance.service.ts";
import { referralsService } from "./services/referrals.service.ts";
import { disputesService } from "./services/disputes.service.ts";
import { localDiskEvidenceStore } from "./services/evidence-store.ts";
import { builderScoreProviderFromEnv } from "./services/profile/builder-score.ts";
import { nftService } from "./services/profile/nft.service.ts";
import { accountPrivateKey, ratingAttester } from "./services/profile/rating-attester.ts";
import { ratingsService } from "./services/profile/ratings.service.ts";
import { usersService } from "./services/profile/users.service.ts";
import { xpService } from "./services/profile/xp.service.ts";
import { buildRelayers } from "./deps/relayers.ts";
import { buildWorkers } from "./deps/workers.ts";
import {
  memoryRateLimitStore,
  postgresRateLimitStore,
  rateLimiter,
  keyedLimit,
  type RateLimiter,
} from "./services/rate-limit.service.ts";

export function createDeps(env: Env, logger: Logger) {
  const database: Database = createDatabase(env.DATABASE_URL, API_POOL.max, API_POOL);
  const db = database.db;
  const file = deploymentFile(env.DEPLOYMENT_FILE, env.CHAIN_ID);
  const deployment = loadDeployment(file);
  if (!deployment) logger.warn("no deployment file: chain endpoints answer 503", { file });
  const chainId = env.CHAIN_ID ?? deployment?.chainId ?? 31337;
  if (deployment && deployment.chainId !== chainId) {
    throw new Error(`CHAIN_ID ${chainId} does not match the deployment file's chainId ${deployment.chainId}`);
  }
  // The built-in development secret is published: on any chain but the local one, anyone could
  // forge a token for any user with it (as with relayer keys, only anvil's 31337 has defaults).
  if (chainId !== 31337 && !env.JWT_SECRET) {
    throw new EnvError([{ variable: "JWT_SECRET", reason: `required on chain ${chainId} (only the local chain 31337 may use the development secret)` }]);
  }
  // JSON-RPC batching for the services' reads: the calls started in the same tick (a create's pre-checks,
  // and those of every request in flight) go out as one HTTP request. The relayer keeps its own
  // unbatched client (api/deps/relayers.ts): its estimates are slow calls, and in one batch with a
  // burst's reads they held every answer back (docs/decisions.md "Batched JSON-RPC for the API's reads").
  const publicClient = createPublicClient({
    transport: rpcTransport(env.RPC_URL, { timeout: 10_000, retryCount: 1, batch: { batchSize: 100, wait: 0 } }),
  }) as PublicClient;
  const explorerUrl = env.EXPLORER_URL ?? knownChain(chainId)?.easExplorer ?? null;
  const stablecoin = escrowStablecoin(publicClient, deployment);
  const directClient = createPublicClient({ transport: rpcTransport(env.RPC_URL, { timeout: 10_000, retryCount: 1 }) }) as PublicClient;
  const chain: ChainContext = { chainId, rpcUrl: env.RPC_URL, publicClient, directClient, deployment, stablecoin, explorerUrl };

  const chainDb = chainTables(env.CHAIN_SCHEMA);
  const discoveryReadModel = discoveryReadModelRepository(database.pool, env.CHAIN_SCHEMA);
  // The relayer's read-your-writes writes, group-committed (one transaction for all queued ones).
  const readModelWrites = discoveryWriteQueue(discoveryReadModel);
  const repos = {
    discoveryReadModel,
    discoveryChanges: discoveryChangesRepository(database.pool),
    users: usersRepository(db),
    sessions: sessionsRepository(database.pool),
    nonces: noncesRepository(db),
    idempotency: idempotencyRepository(db, database.pool),
    rateLimit: rateLimitRepository(db),
    missions: missionsRepository(db, database.pool, chainDb, env.CHAIN_SCHEMA),
    settlements: settlementsRepository(db, chainDb),
    missionDetails: missionDetailsRepository(db, readModelWrites),
    faucet: faucetRepository(db),
    webhooks: webhooksRepository(db, database.pool, chainDb),
    notifications: notificationsRepository(db),
    push: pushRepository(database.pool),
    deadlines: deadlinesRepository(db, chainDb),
    ratingClaims: ratingClaimsRepository(db, chainDb),
    discovery: discoveryRepository(database.pool, env.CHAIN_SCHEMA),
    discoveryFeed: discoveryFeedRepository(database.pool),
    discoveryFeedSource: discoveryFeedSourceRepository(database.pool, env.CHAIN_SCHEMA),
    journal: journalRepository(database.pool, env.CHAIN_SCHEMA),
    guilds: guildsRepository(db, chainDb, env.CHAIN_SCHEMA),
    vault: vaultRepository(database.pool, db, chainDb),
    privacy: privacyRepository(db, chainDb, env.CHAIN_SCHEMA),
    disputes: disputesRepository(database.pool, db, chainDb, env.CHAIN_SCHEMA),
    profile: profileRepository(database.pool, db, chainDb, env.CHAIN_SCHEMA),
    locks: locksRepository(database.pool),
    health: healthRepository(db),
    governance: governanceRepository(db),
  };
  const metrics: Metrics = createMetrics();
  const rateStore = env.RATE_LIMIT_STORE === "postgres" ? postgresRateLimitStore(repos.rateLimit) : memoryRateLimitStore();
  const indexer = indexerService({
    url: env.INDEXER_URL, chainId, waitMs: env.INDEXER_WAIT_MS,
    checkpoints: indexerCheckpointRepository(database.pool, env.CHAIN_SCHEMA, chainId),
    // The relayer's read-your-writes wait: the checkpoint read and the read model's catch-up in one transaction.
    catchUp: (blocks) => readModelWrites.syncBlocksReading(blocks).then((rows) => checkpointBlockOf(rows, chainId)),
  });
  const relayers = buildRelayers({
    env, chain, database, indexer, logger, metrics, rateLimit: repos.rateLimit,
    onIndexed: (block) => readModelWrites.syncBlock(block),
  });
  const relayer = relayers.pool;
  const { operator } = relayers;
  const port = env.PORT;
  const domain = env.SIWE_DOMAIN ?? (port === 0 ? "localhost" : `localhost:${port}`);
  const walletSetup = walletSetupService({ chain, relayer, operator });
  const privacy = privacyService({ repo: repos.privacy });
  const missionDeps = {
    chain, relayer, missions: repos.missions, details: repos.missionDetails, users: repos.users, setup: walletSetup.gate, privacy,
    settlements: repos.settlements,
  };
  const missions = missionsService(missionDeps);
  const push = webPushDelivery({
    publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT, logger,
    timeoutMs: env.PUSH_TIMEOUT_MS, allowPrivate: env.PUSH_ALLOW_PRIVATE_URLS,
  });
  const guilds = guildsService({
    repo: repos.guilds, chain, relayer, setup: walletSetup.gate, privacy, mission: (id, viewer) => missions.get(id, viewer),
  });
  const notifications = notificationsService({
    repo: repos.notifications, users: repos.users, push, logger,
    maxDevicesPerUser: env.PUSH_MAX_DEVICES_PER_USER, allowPrivatePushUrls: env.PUSH_ALLOW_PRIVATE_URLS,
  });
  const community = {
    guilds, notifications, push,
    ...guildInvites({ guilds, notifications, guildsRepo: repos.guilds, privacy }),
  };
  // The attester signs with the relayer's key (the attester the indexer accepts); the sponsor pays.
  // Cheap to build: the EAS SDK loads on the first rating (rating-attester.ts).
  const attester = relayers.sponsor && deployment
    ? ratingAttester({
        chain, sponsor: relayers.sponsor, locks: repos.locks,
        attesterKey: accountPrivateKey(relayerAccount(relayers.primaryKey, chainId), relayers.primaryKey),
      })
    : null;
  const users = usersService({ repo: repos.profile, users: repos.users, privacy, chainId });
  const profile = {
    users,
    ratings: ratingsService({
      repo: repos.profile, users: repos.users, usersService: users, privacy, chain, explorerUrl: chain.explorerUrl ?? undefined,
      attester: () => {
        if (!attester) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
        return attester;
      },
    }),
    xp: xpService({
      repo: repos.profile, usersService: users, privacy, chain, relayer, provider: builderScoreProviderFromEnv(env.BUILDER_SCORE_URL),
    }),
    nft: nftService({ repo: repos.profile, usersService: users }),
  };
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
        liveMessagesMax: env.AUTH_LIVE_MESSAGES_MAX,
      },
      issuance: keyedLimit(rateStore, env.AUTH_MESSAGES_PER_MIN),
      nonces: repos.nonces,
      users: repos.users,
      publicClient,
      logger,
    }),
    indexer,
    missions,
    walletSetup,
    faucet: faucetService({ chain, relayer, claims: repos.faucet, enabled: env.FAUCET_ENABLED }),
    webhooks: webhooksService({ repo: repos.webhooks, users: repos.users, allowPrivateUrls: env.WEBHOOKS_ALLOW_PRIVATE_URLS }),
    discovery: discoveryService({
      repo: repos.discovery, feed: repos.discoveryFeed, feedIndex: createFeedIndex(repos.discoveryFeedSource), journal: repos.journal, missions: repos.missions, changes: repos.discoveryChanges, privacy }),
    community,
    privacy,
    vault: vaultService({
      repo: repos.vault, missions: repos.missions, guilds: repos.guilds, notifications: repos.notifications, chain, logger, privacy,
    }),
    disputes: disputesService({ ...missionDeps, repo: repos.disputes, store: localDiskEvidenceStore(env.EVIDENCE_DIR), locks: repos.locks }),
    profile,
    governance: governanceService({
      repo: repos.governance,
      levelOf: async (address) => (await repos.profile.userStats(address))?.level ?? 1,
      chainId,
    }),
    referrals: referralsService({ users: repos.users, chain, relayer }),
  };
  const limiter: RateLimiter = rateLimiter(rateStore, {
    anonymous: env.RATE_LIMIT_ANON_PER_MIN,
    user: env.RATE_LIMIT_USER_PER_MIN,
    premium: env.RATE_LIMIT_PREMIUM_PER_MIN,
  });
  const workers = buildWorkers({
    env, logger, chain, relayer, outboxes: relayers.outboxes, rateLimiter: limiter, onRateLimited: () => metrics.rateLimited.inc(),
    repos,
    services: { ...services, notifications, push },
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
    /** The address users approve (the executor, else the relayer); null without a deployment. */
    operator,
    /** Background work, started and stopped by api/app.ts. */
    workers,
    /** The deadline keeper (workers.keeper): tests drive passes with keeper.tick(). */
    keeper: workers.keeper,
    /** Opens the pool's warm connections and plans the discovery relations on each (at start). */
    prefill: () => prefill(database.pool, API_POOL.warm, discoveryWarmStatements(env.CHAIN_SCHEMA)),
    close: () => {
      indexer.close();
      return database.close();
    },
  };
}

export type Deps = ReturnType<typeof createDeps>;
