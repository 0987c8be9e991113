// The profile area's services (users, ratings, XP, NFTs), built once in the composition root.
import type { Hex } from "viem";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Metrics } from "../../lib/metrics.ts";
import type { ChainContext, Relayer } from "../../lib/ports.ts";
import type { LocksRepository } from "../../repositories/locks.repository.ts";
import type { ProfileRepository } from "../../repositories/profile.repository.ts";
import type { UsersRepository } from "../../repositories/users.repository.ts";
import type { IndexerService } from "../indexer.service.ts";
import type { PrivacyService } from "../privacy.ts";
import { createRelayer, relayerAccount, type FeePolicy } from "../relayer/index.ts";
import type { BuilderScoreProvider } from "./builder-score.ts";
import { nftService } from "./nft.service.ts";
import { accountPrivateKey, ratingAttester, type RatingAttester } from "./rating-attester.ts";
import { ratingsService } from "./ratings.service.ts";
import { usersService } from "./users.service.ts";
import { xpService } from "./xp.service.ts";

/**
 * The rating attester, built on first use: the attester signs (the relayer's key: the attester the
 * indexer accepts); the sponsor pays gas, a relayer of its own only when SPONSOR_PRIVATE_KEY is set.
 */
export function lazyRatingAttester(deps: {
  chain: ChainContext;
  relayer: Relayer | null;
  relayerKey: string | undefined;
  sponsorKey: string | undefined;
  database: Database;
  locks: LocksRepository;
  indexer: IndexerService;
  logger: Logger;
  metrics: Metrics;
  fees?: FeePolicy;
}): () => RatingAttester {
  const { chain } = deps;
  let attester: RatingAttester | null = null;
  return () => {
    if (attester) return attester;
    if (!deps.relayer || !chain.deployment) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
    const account = relayerAccount(deps.relayerKey as Hex | undefined, chain.chainId);
    let sponsor: Relayer = deps.relayer;
    if (deps.sponsorKey) {
      sponsor = createRelayer({
        account: relayerAccount(deps.sponsorKey as Hex, chain.chainId),
        chainId: chain.chainId, rpcUrl: chain.rpcUrl, escrow: chain.deployment.contracts.MissionEscrow.address,
        publicClient: chain.publicClient, database: deps.database, indexer: deps.indexer,
        logger: deps.logger, metrics: deps.metrics, fees: deps.fees,
      });
    }
    attester = ratingAttester({
      chain, sponsor, locks: deps.locks,
      attesterKey: accountPrivateKey(account, deps.relayerKey as Hex | undefined),
    });
    return attester;
  };
}

export function profileServices(deps: {
  repo: ProfileRepository;
  users: UsersRepository;
  chain: ChainContext;
  relayer: Relayer | null;
  attester: () => RatingAttester;
  provider: BuilderScoreProvider | null;
  explorerUrl: string | undefined;
  privacy: PrivacyService;
}) {
  const { repo, chain, privacy } = deps;
  const users = usersService({ repo, users: deps.users, privacy, chainId: chain.chainId });
  return {
    users,
    ratings: ratingsService({ repo, users: deps.users, usersService: users, privacy, chain, attester: deps.attester, explorerUrl: deps.explorerUrl }),
    xp: xpService({ repo, usersService: users, privacy, chain, relayer: deps.relayer, provider: deps.provider }),
    nft: nftService({ repo, usersService: users }),
  };
}
export type ProfileServices = ReturnType<typeof profileServices>;
