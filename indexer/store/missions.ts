// Finds a mission row by its on-chain id and applies one transition.
import { missions } from "ponder:schema";
import { missionUuid } from "../../domain/index.ts";
import type { Ctx, EventLike } from "./types.ts";

export type MissionRow = typeof missions.$inferSelect;

export async function missionStep(
  context: Ctx,
  event: EventLike,
  onChainId: bigint,
  change: (txHash: `0x${string}`, timestamp: bigint) => Partial<MissionRow>,
): Promise<MissionRow> {
  const id = missionUuid(context.chain.id, event.log.address, onChainId);
  return context.db.update(missions, { id }).set({
    ...change(event.transaction.hash, event.block.timestamp),
    updatedBlock: event.block.number,
    updatedAt: event.block.timestamp,
  });
}
