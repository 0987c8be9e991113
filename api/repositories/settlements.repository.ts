// A mission's money in trouble as the indexer sees it (Ponder's tables, api/db/chain.ts): the open
// settlement offers, the state of the mission's dispute, and the payments made in parts or by
// agreement. Drizzle over the typed tables; the row types are the selects' (bigint columns as bigint).
import { and, desc, eq } from "drizzle-orm";
import type { MissionId } from "../../domain/index.ts";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { chainRead } from "./chain-query.ts";

type Chain = Pick<ChainTables, "missions" | "disputes" | "settlementOffers" | "missionPayments">;

type Offer = ChainTables["settlementOffers"]["$inferSelect"];
export type OfferRow = Pick<Offer, "byPoster" | "party" | "performerAmount" | "posterAmount" | "createdAt" | "txHash">;
type Payment = ChainTables["missionPayments"]["$inferSelect"];
export type PaymentRow = Pick<
  Payment,
  "kind" | "performerGross" | "posterAmount" | "performerAmount" | "protocolAmount" | "guildAmount" | "labsAmount" | "poolAmount" | "remaining" | "disputeId"
>;

export function settlementsRepository(db: Db, t: Chain) {
  const { settlementOffers: o, missionPayments: p, missions: m, disputes: d } = t;
  return {
    /** The mission's open offers, the poster's first. */
    offers(missionId: string): Promise<OfferRow[]> {
      return chainRead(
        db.select({ byPoster: o.byPoster, party: o.party, performerAmount: o.performerAmount, posterAmount: o.posterAmount, createdAt: o.createdAt, txHash: o.txHash })
          .from(o).where(eq(o.missionId, missionId as MissionId)).orderBy(desc(o.byPoster)),
      );
    },

    /** The mission's current (latest) dispute, if it has one. */
    async dispute(missionId: string): Promise<Pick<ChainTables["disputes"]["$inferSelect"], "id" | "state"> | null> {
      const [row] = await chainRead(
        db.select({ id: d.id, state: d.state }).from(m).innerJoin(d, eq(d.id, m.disputeId)).where(eq(m.id, missionId as MissionId)),
      );
      return row ?? null;
    },

    /** The payment one transaction made for the mission (its release, refund or settlement). */
    async payment(missionId: string, txHash: string): Promise<PaymentRow | null> {
      const [row] = await chainRead(
        db.select({
          kind: p.kind, performerGross: p.performerGross, posterAmount: p.posterAmount, performerAmount: p.performerAmount,
          protocolAmount: p.protocolAmount, guildAmount: p.guildAmount, labsAmount: p.labsAmount, poolAmount: p.poolAmount,
          remaining: p.remaining, disputeId: p.disputeId,
        }).from(p).where(and(eq(p.missionId, missionId as MissionId), eq(p.txHash, txHash.toLowerCase() as `0x${string}`))).orderBy(desc(p.id)).limit(1),
      );
      return row ?? null;
    },
  };
}
export type SettlementsRepository = ReturnType<typeof settlementsRepository>;
