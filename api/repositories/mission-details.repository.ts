import { and, eq, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { disputeRecords, missionDetails, missionProofs } from "../db/schema.ts";
import type { DiscoveryReadModelRepository } from "./discovery-read-model.repository.ts";

export type MissionDetailsRow = typeof missionDetails.$inferSelect;

/** `readModel`: the discovery read model, updated in the same transaction as a details write that changes it. */
export function missionDetailsRepository(db: Db, readModel?: Pick<DiscoveryReadModelRepository, "attachDetails">) {
  /** The details row of `hash` bound to `mission`, unless it is bound to another one already. */
  async function bind(hash: string, mission: { escrowAddress: string; onChainId: string }): Promise<void> {
    const escrowAddress = mission.escrowAddress.toLowerCase();
    await db
      .update(missionDetails)
      .set({ onChainId: mission.onChainId, escrowAddress })
      .where(and(eq(missionDetails.detailsHash, hash.toLowerCase()), or(isNull(missionDetails.onChainId), and(eq(missionDetails.onChainId, mission.onChainId), eq(missionDetails.escrowAddress, escrowAddress)))));
  }
  return {
    /**
     * setOnChainId's binding alone, without the read model (the create binds at the receipt, before
     * the indexer has the mission: the read model's refresh after indexing then has the details).
     */
    bind,
    async insert(row: typeof missionDetails.$inferInsert): Promise<void> {
      await db.insert(missionDetails).values(row).onConflictDoNothing();
    },
    /** The details behind `hash`, only when they were written for this mission (a copied hash finds none). */
    async findForMission(hash: string, mission: { escrowAddress: string; onChainId: string }): Promise<MissionDetailsRow | null> {
      const [row] = await db
        .select()
        .from(missionDetails)
        .where(
          and(
            eq(missionDetails.detailsHash, hash.toLowerCase()),
            eq(missionDetails.onChainId, mission.onChainId),
            eq(missionDetails.escrowAddress, mission.escrowAddress.toLowerCase()),
          ),
        );
      return row ?? null;
    },
    /** Takes back a details row no mission was created with (the create's checks refused it). */
    async removeUnbound(hash: string): Promise<void> {
      await db.delete(missionDetails).where(and(eq(missionDetails.detailsHash, hash.toLowerCase()), isNull(missionDetails.onChainId)));
    },
    /** Binds a new mission's details row to the mission the chain created (once; never re-bound). */
    async setOnChainId(hash: string, mission: { escrowAddress: string; onChainId: string }): Promise<void> {
      if (readModel) return readModel.attachDetails(hash, mission);
      await bind(hash, mission);
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
