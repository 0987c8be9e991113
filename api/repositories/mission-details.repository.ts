import { eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { disputeRecords, missionDetails, missionProofs } from "../db/schema.ts";
import type { DiscoveryReadModelRepository } from "./discovery-read-model.repository.ts";

export type MissionDetailsRow = typeof missionDetails.$inferSelect;

/** `readModel`: the discovery read model, updated in the same transaction as a details write that changes it. */
export function missionDetailsRepository(db: Db, readModel?: Pick<DiscoveryReadModelRepository, "attachDetails">) {
  return {
    async insert(row: typeof missionDetails.$inferInsert): Promise<void> {
      await db.insert(missionDetails).values(row).onConflictDoNothing();
    },
    async findByHash(hash: string): Promise<MissionDetailsRow | null> {
      const [row] = await db.select().from(missionDetails).where(eq(missionDetails.detailsHash, hash.toLowerCase()));
      return row ?? null;
    },
    async setOnChainId(hash: string, onChainId: string): Promise<void> {
      if (readModel) return readModel.attachDetails(hash, onChainId);
      await db.update(missionDetails).set({ onChainId }).where(eq(missionDetails.detailsHash, hash.toLowerCase()));
    },
    async insertProof(row: typeof missionProofs.$inferInsert): Promise<void> {
      await db.insert(missionProofs).values(row).onConflictDoNothing();
    },
    async insertDispute(row: typeof disputeRecords.$inferInsert): Promise<string> {
      const [r] = await db.insert(disputeRecords).values(row).returning({ id: disputeRecords.id });
      return r!.id;
    },
    async setDisputeOnChainId(id: string, disputeOnChainId: string): Promise<void> {
      await db.update(disputeRecords).set({ disputeOnChainId }).where(eq(disputeRecords.id, id));
    },
  };
}
export type MissionDetailsRepository = ReturnType<typeof missionDetailsRepository>;
