// Part of the composition root (api/deps.ts): every background worker of an API copy, built here
// from narrow ports and started and stopped by api/app.ts (start() when the server is created,
// realtime.attach(server) once it listens, stop() at close). Nothing runs before start(), so deps
// built for a test or a script (createDeps + buildApp) hold no timer and no LISTEN connection.
import { keeperIntervalMs, type Env } from "../env.ts";
import type { Logger } from "../lib/logger.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import { achievementsReactor } from "../reactors/achievements.ts";
import { discoveryReactor } from "../reactors/discovery.ts";
import { confirmationsFor, mintConfirmationsFor, type FinalitySettings } from "../reactors/finality.ts";
import { notificationsReactor } from "../reactors/notifications.ts";
import { resolverGrantsReactor } from "../reactors/resolver-grants.ts";
import { reactorRunner } from "../reactors/runner.ts";
import { webhooksReactor } from "../reactors/webhooks.ts";
import type { DeadlinesRepository } from "../repositories/deadlines.repository.ts";
import type { DiscoveryChangesRepository, DiscoveryReadModelRepository } from "../repositories/discovery-read-model.repository.ts";
import type { IdempotencyRepository } from "../repositories/idempotency.repository.ts";
import type { JournalRepository } from "../repositories/journal.repository.ts";
import type { LocksRepository } from "../repositories/locks.repository.ts";
import type { MissionsRepository } from "../repositories/missions.repository.ts";
import type { NoncesRepository } from "../repositories/nonces.repository.ts";
import type { NotificationsRepository } from "../repositories/notifications.repository.ts";
import type { OutboxRepository } from "../repositories/outbox.repository.ts";
import type { ProfileRepository } from "../repositories/profile.repository.ts";
import type { PushRepository } from "../repositories/push.repository.ts";
import type { RatingClaimsRepository } from "../repositories/rating-claims.repository.ts";
import type { SessionsRepository } from "../repositories/sessions.repository.ts";
import type { VaultRepository } from "../repositories/vault.repository.ts";
import type { WebhooksRepository } from "../repositories/webhooks.repository.ts";
import type { AuthService } from "../services/auth.service.ts";
import type { DiscoveryService } from "../services/discovery/discovery.service.ts";
import { realtimeChannel } from "../services/discovery/realtime.ts";
import { housekeeping } from "../services/housekeeping.ts";
import type { IndexerService } from "../services/indexer.service.ts";
import { deadlineKeeper } from "../services/keeper/deadline-keeper.ts";
import type { NotificationsService } from "../services/notifications.service.ts";
import type { PrivacyService } from "../services/privacy.ts";
import { ratingSweeper } from "../services/profile/rating-sweeper.ts";
import { pushDispatcher } from "../services/push-dispatcher.ts";
import type { PushDelivery } from "../services/push-delivery.ts";
import type { RateLimiter } from "../services/rate-limit.service.ts";
import type { VaultService } from "../services/vault.service.ts";
import { disabledNotice } from "../services/webhooks/disabled-notice.ts";
import { webhookDispatcher } from "../services/webhooks/dispatcher.ts";
import type { WebhooksService } from "../services/webhooks/webhooks.service.ts";

export interface WorkerParts {
  env: Env;
  logger: Logger;
  chain: ChainContext;
  relayer: Relayer | null;
  outboxes: OutboxRepository[];
  rateLimiter: RateLimiter;
  onRateLimited: () => void;
  repos: {
    journal: JournalRepository;
    locks: LocksRepository;
    deadlines: DeadlinesRepository;
    ratingClaims: RatingClaimsRepository;
    profile: ProfileRepository;
    vault: VaultRepository;
    webhooks: WebhooksRepository;
    notifications: NotificationsRepository;
    push: PushRepository;
    discoveryReadModel: DiscoveryReadModelRepository;
    discoveryChanges: DiscoveryChangesRepository;
    missions: MissionsRepository;
    sessions: SessionsRepository;
    nonces: NoncesRepository;
    idempotency: IdempotencyRepository;
  };
  services: {
    auth: AuthService;
    indexer: IndexerService;
    privacy: PrivacyService;
    notifications: NotificationsService;
    push: PushDelivery;
    webhooks: WebhooksService;
    discovery: DiscoveryService;
    vault: VaultService;
  };
}

export function buildWorkers(p: WorkerParts) {
  const { env, logger, chain, relayer, repos, services } = p;
  const deployment = chain.deployment;

  // Mission and dispute deadlines, stale rating claims (advisory-lock leader among copies).
  const keeper = deadlineKeeper({
    locks: repos.locks,
    chainId: chain.chainId,
    publicClient: chain.publicClient,
    escrow: deployment?.contracts.MissionEscrow.address ?? null,
    relayer,
    deadlines: repos.deadlines,
    ratings: deployment
      ? ratingSweeper({ locks: repos.locks, publicClient: chain.publicClient, indexer: services.indexer, claims: repos.ratingClaims })
      : null,
    logger,
    intervalMs: keeperIntervalMs(env),
  });

  // Journal reactors, in the order the runner drives them; one leader among the API copies.
  const finality: FinalitySettings = { chainId: chain.chainId, confirmations: env.CONFIRMATIONS, achievementConfirmations: env.ACHIEVEMENT_CONFIRMATIONS };
  const reactors = [
    notificationsReactor({ vault: repos.vault, notifications: services.notifications }),
    achievementsReactor({ chain, relayer, profile: repos.profile, confirmations: mintConfirmationsFor(finality) }),
    webhooksReactor({ webhooks: services.webhooks, confirmations: confirmationsFor(finality) }),
    discoveryReactor({ readModel: repos.discoveryReadModel }),
    resolverGrantsReactor({ chain, relayer, confirmations: confirmationsFor(finality) }),
  ];
  const runner = env.REACTORS_ENABLED
    ? reactorRunner({ journal: repos.journal, locks: repos.locks, logger, pollMs: env.REACTORS_POLL_MS }, reactors)
    : null;

  // Webhooks: every copy sends from the shared outbox (leased rows; see the dispatcher).
  const webhooks = env.WEBHOOKS_DISPATCH_ENABLED
    ? webhookDispatcher({
        repo: repos.webhooks,
        listen: (onNotify, onLost) => repos.webhooks.listen(onNotify, onLost),
        logger,
        onDisabled: disabledNotice(repos.notifications),
        options: {
          concurrency: env.WEBHOOK_CONCURRENCY, pollMs: env.WEBHOOK_POLL_MS, retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
          maxAttempts: env.WEBHOOK_MAX_ATTEMPTS, timeoutMs: env.WEBHOOK_TIMEOUT_MS, allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE_URLS,
          maxResponseBytes: 64 * 1024,
        },
      })
    : null;
  // Web Push: sent here, never in the reactors (a user's silent endpoints must not hold the journal).
  // Same switch as the webhooks' dispatcher; nothing is queued without VAPID keys.
  const pushes = env.WEBHOOKS_DISPATCH_ENABLED && services.push.enabled
    ? pushDispatcher({
        repo: repos.push,
        push: services.push,
        logger,
        options: { concurrency: env.PUSH_CONCURRENCY, timeoutMs: env.PUSH_TIMEOUT_MS, pollMs: env.WEBHOOK_POLL_MS },
      })
    : null;

  // WebSocket /ws (discovery area): upgrades on the same HTTP server, attached once it listens.
  const realtime = realtimeChannel({
    logger,
    changes: repos.discoveryChanges,
    missions: repos.missions,
    privacy: services.privacy,
    auth: services.auth,
    rateLimiter: p.rateLimiter,
    onRateLimited: p.onRateLimited,
    sessions: repos.sessions,
    settings: {
      maxSubscriptions: env.WS_MAX_SUBSCRIPTIONS,
      msgRatePerSec: env.WS_MSG_RATE_PER_SEC,
      msgBurst: env.WS_MSG_BURST,
      maxConnectionsPerIp: env.WS_MAX_CONNECTIONS_PER_IP,
      maxConnectionsPerUser: env.WS_MAX_CONNECTIONS_PER_USER,
      sessionRecheckMs: env.WS_SESSION_RECHECK_MS,
      trustProxy: env.TRUST_PROXY,
    },
  });

  const sweep = housekeeping({
    logger,
    jobs: {
      nonces: () => repos.nonces.purgeExpired(),
      idempotencyKeys: () => repos.idempotency.purgeExpired(),
      locationHistory: () => services.discovery.purgeLocationHistory(),
      discoveryChanges: () => services.discovery.purgeChangeFeed(),
      vaultExportLogs: () => services.vault.purgeExportLogs(),
      pushes: () => repos.push.purgeFinished(),
      relayerOutbox: () => Promise.all(p.outboxes.map((o) => o.purge())),
    },
  });

  return {
    keeper,
    /** The journal reactors (built whether or not REACTORS_ENABLED runs them). */
    reactors,
    runner,
    webhooks,
    pushes,
    realtime,
    housekeeping: sweep,
    /** Starts every enabled worker but realtime (attached to the listening server). */
    start() {
      sweep.start();
      keeper.start();
      runner?.start();
      webhooks?.start();
      pushes?.start();
    },
    async stop() {
      await sweep.stop();
      await keeper.stop();
      await realtime.close();
      await runner?.stop();
      await webhooks?.stop();
      await pushes?.stop();
    },
  };
}
export type Workers = ReturnType<typeof buildWorkers>;
