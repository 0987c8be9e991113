// Achievement definitions and the NFTs a user holds, from the indexer's tables.
import type { ProfileRepository } from "../../repositories/profile.repository.ts";
import type { UsersService } from "./users.service.ts";
import { nftView } from "./views.ts";

export function nftService(deps: { repo: ProfileRepository; usersService: UsersService }) {
  const { repo } = deps;
  return {
    async definitions() {
      return (await repo.achievementDefinitions()).map((d) => ({
        id: d.achievementId.toString(),
        name: d.name,
        description: d.description,
        image: d.image,
        requirements: d.requirements,
        xpReward: d.xpReward,
      }));
    },
    /** soulbound: true = achievements, false = collectibles, undefined = all. */
    async of(idOrAddress: string, soulbound?: boolean) {
      const s = await deps.usersService.resolve(idOrAddress, "path.userId");
      const rows = await repo.nfts(s.address, soulbound);
      const completed = await repo.missionCompletedAt(rows.map((r) => r.missionId).filter((x): x is string => !!x));
      return rows.map((r) => nftView(r, r.missionId ? completed.get(r.missionId) : null));
    },
  };
}
export type NftService = ReturnType<typeof nftService>;
