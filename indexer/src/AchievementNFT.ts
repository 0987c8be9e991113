// Achievement kinds and their NFTs. Minting awards no XP: `xpReward` is shown, the XP sources
// table of the spec is closed (docs/decisions.md).
import { ponder } from "ponder:registry";
import { achievementDefinitions, nfts } from "ponder:schema";
import { missionUuid } from "../../domain/index.ts";
import { readDeployment } from "../lib/deployment.ts";
import { openJournal } from "../store/journal.ts";
import { lc, ZERO_ADDRESS } from "../store/types.ts";

const escrow = readDeployment().contracts.MissionEscrow.address;

ponder.on("AchievementNFT:AchievementDefined", async ({ event, context }) => {
  await context.db
    .insert(achievementDefinitions)
    .values({ ...event.args, definedAt: event.block.timestamp, txHash: event.transaction.hash });
  await openJournal(context, event).emit("ACHIEVEMENT_DEFINED", event.args);
});

ponder.on("AchievementNFT:AchievementMinted", async ({ event, context }) => {
  const { tokenId, to, achievementId, soulbound, missionId } = event.args;
  const def = await context.db.find(achievementDefinitions, { achievementId });
  const mission = missionId === 0n ? null : missionUuid(context.chain.id, escrow, missionId);
  await context.db.insert(nfts).values({
    tokenId,
    contractAddress: lc(event.log.address),
    owner: lc(to),
    minter: lc(to),
    achievementId,
    soulbound,
    missionOnChainId: missionId,
    missionId: mission,
    type: def?.achievementType ?? "",
    name: def?.name ?? "",
    description: def?.description ?? "",
    image: def?.image ?? "",
    mintedAt: event.block.timestamp,
    txHash: event.transaction.hash,
  });
  await openJournal(context, event).emit(
    "NFT_MINTED",
    { ...event.args, name: def?.name, type: def?.achievementType, missionUuid: mission },
    { missionId: mission, account: to },
  );
});

// Collectibles move; mints (from zero) are recorded by AchievementMinted.
ponder.on("AchievementNFT:Transfer", async ({ event, context }) => {
  const { from, to, tokenId } = event.args;
  if (from === ZERO_ADDRESS) return;
  await context.db.update(nfts, { tokenId }).set({ owner: lc(to) });
  await openJournal(context, event).emit("NFT_TRANSFERRED", event.args, { account: to });
});
