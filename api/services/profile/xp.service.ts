// XP summaries, ledgers and leaderboards from the indexer's figures (levels.ts / xp.ts rules), and
// the builder-score refresh: the provider's score is put on-chain by the provider role (the relayer),
// so the indexer's XP derivation stays a pure function of chain events.
import type { Address } from "viem";
import { reputationRegistryAbi } from "../../../abis/index.ts";
import type { ChainContext, Relayer } from "../../lib/ports.ts";
import { AppError } from "../../lib/errors.ts";
import type { ProfileRepository } from "../../repositories/profile.repository.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import type { BuilderScoreProvider } from "./builder-score.ts";
import type { UsersService } from "./users.service.ts";
import { ledgerView, subjectId, xpSummaryView } from "./views.ts";

/** At most one provider call per user per day. */
export const BUILDER_REFRESH_SECONDS = 24 * 3600;

import type { PrivacyService } from "../privacy.ts";
export function xpService(deps: {
  repo: ProfileRepository;
  usersService: UsersService;
  privacy: PrivacyService;
  chain: ChainContext;
  relayer: Relayer | null;
  provider: BuilderScoreProvider | null;
}) {
  const { repo, usersService } = deps;
  return {
    async summary(idOrAddress: string) {
      const s = await usersService.resolve(idOrAddress, "path.userId");
      return xpSummaryView(subjectId(s), await repo.userStats(s.address));
    },
    /** /xp/me: the summary plus the phase's context a client needs. */
    async me(user: UserRow) {
      const s = usersService.self(user);
      const stats = await repo.userStats(s.address);
      const last = await repo.lastBuilderRefresh(s.address);
      return {
        ...xpSummaryView(subjectId(s), stats),
        evmAddress: s.address,
        hasBuilderScore: stats?.builderScore !== null && stats?.builderScore !== undefined,
        builderScoreRefreshedAt: last?.refreshed_at.toISOString() ?? null,
      };
    },
    async ledger(idOrAddress: string, limit: number) {
      const s = await usersService.resolve(idOrAddress, "path.userId");
      return (await repo.ledger(s.address, limit)).map(ledgerView);
    },
    async leaderboard(limit: number, type: "global" | "builders", viewer?: string) {
      const rows = await repo.leaderboard(limit, type === "builders");
      const lens = await deps.privacy.lens(viewer, rows.map((r) => r.address));
      return rows.map((r, i) => ({
        user: { id: r.userId ?? r.address, displayName: lens.field(r.address, "displayName", r.displayName ?? ""), evmAddress: r.address },
        xp: r.totalXP,
        rank: i + 1,
        builderScore: r.builderScore ?? 0,
      }));
    },
    /**
     * Asks the provider for the caller's score (at most once a day unless the last call found none)
     * and, when it differs from the on-chain one, sets it through ReputationRegistry.setBuilderScore.
     */
    async refreshBuilderScore(user: UserRow) {
      const address = user.evmAddress;
      const result = (score: number | null, txHash: string | null, refreshedAt: Date, cached: boolean) => ({
        provider: deps.provider?.name ?? null,
        builderScore: score,
        transactionHash: txHash,
        refreshedAt: refreshedAt.toISOString(),
        cached,
      });
      if (!deps.provider) return result(null, null, new Date(), false);
      const last = await repo.lastBuilderRefresh(address);
      if (last && Date.now() - last.refreshed_at.getTime() < BUILDER_REFRESH_SECONDS * 1000) {
        return result(last.score, null, last.refreshed_at, true);
      }
      const score = await deps.provider.fetchScore(address);
      let txHash: string | null = null;
      if (score !== null) {
        const onChain = (await repo.userStats(address))?.builderScore ?? null;
        if (onChain !== score) {
          if (!deps.relayer || !deps.chain.deployment) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
          const sent = await deps.relayer.send("setBuilderScore", [address as Address, score], {
            address: deps.chain.deployment.contracts.ReputationRegistry.address,
            abi: reputationRegistryAbi,
          });
          txHash = sent.hash;
        }
      }
      await repo.recordBuilderRefresh(address, score, txHash);
      return result(score, txHash, new Date(), false);
    },
  };
}
export type XpService = ReturnType<typeof xpService>;
