// The profile area's services, built once per deps object (memoised), from c.var.deps.
import type { Hex } from "viem";
import type { Deps } from "../../deps.ts";
import { profileRepository } from "../../repositories/profile.repository.ts";
import { createRelayer, relayerAccount, type Relayer } from "../relayer.ts";
import { builderScoreProviderFromEnv, type BuilderScoreProvider } from "./builder-score.ts";
import { nftService } from "./nft.service.ts";
import { accountPrivateKey, ratingAttester, type RatingAttester } from "./rating-attester.ts";
import { ratingsService } from "./ratings.service.ts";
import { usersService } from "./users.service.ts";
import { xpService } from "./xp.service.ts";
import { AppError } from "../../lib/errors.ts";

function build(deps: Deps, opts: { provider?: BuilderScoreProvider | null } = {}) {
  const { env, chain } = deps;
  const repo = profileRepository(deps.database.pool, env.CHAIN_SCHEMA);
  const users = usersService({ repo, users: deps.repos.users, chainId: chain.chainId });
  let attester: RatingAttester | null = null;
  // The attester signs (the relayer's key: the attester the indexer accepts); the sponsor pays gas.
  const getAttester = () => {
    if (attester) return attester;
    if (!deps.relayer || !chain.deployment) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
    const account = relayerAccount(env.RELAYER_PRIVATE_KEY as Hex | undefined, chain.chainId);
    let sponsor: Relayer = deps.relayer;
    if (env.SPONSOR_PRIVATE_KEY) {
      sponsor = createRelayer({
        account: relayerAccount(env.SPONSOR_PRIVATE_KEY as Hex, chain.chainId),
        chainId: chain.chainId, rpcUrl: env.RPC_URL, escrow: chain.deployment.contracts.MissionEscrow.address,
        publicClient: chain.publicClient, database: deps.database, indexer: deps.services.indexer,
        logger: deps.logger, metrics: deps.metrics,
      });
    }
    attester = ratingAttester({
      chain, sponsor, pool: deps.database.pool,
      attesterKey: accountPrivateKey(account, env.RELAYER_PRIVATE_KEY as Hex | undefined),
    });
    return attester;
  };
  const provider = opts.provider === undefined ? builderScoreProviderFromEnv(env.BUILDER_SCORE_URL) : opts.provider;
  return {
    repo,
    users,
    ratings: ratingsService({ repo, users: deps.repos.users, usersService: users, chain, attester: getAttester, explorerUrl: env.EXPLORER_URL }),
    xp: xpService({ repo, usersService: users, chain, relayer: deps.relayer, provider }),
    nft: nftService({ repo, usersService: users }),
  };
}

const cache = new WeakMap<Deps, ReturnType<typeof build>>();
export function profileServices(deps: Deps) {
  let s = cache.get(deps);
  if (!s) cache.set(deps, (s = build(deps)));
  return s;
}
export type ProfileServices = ReturnType<typeof build>;
