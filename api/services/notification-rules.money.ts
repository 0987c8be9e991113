// Which notifications money in trouble creates (pure): extension types, all under `missionUpdates`.
// Amounts in `data` are base units (integer strings), as MISSION_EXPIRED's refundAmount.
import type { JournalEntry } from "../../domain/index.ts";

export const MONEY_NOTIFICATION_TYPES = ["SETTLEMENT_OFFERED", "MISSION_SETTLED", "MISSION_RELEASED", "MISSION_REFUNDED"] as const;
export const MONEY_NOTIFYING_JOURNAL_TYPES = ["MISSION_SETTLEMENT_OFFERED", "MISSION_SETTLED", "MISSION_RELEASED", "MISSION_REFUNDED"] as const;

export interface MoneyDraft {
  to: string | null | undefined;
  type: (typeof MONEY_NOTIFICATION_TYPES)[number];
  title: string;
  body: string;
  data: Record<string, unknown>;
}

const usdc = (units: string) => {
  const v = BigInt(units);
  return `${v / 1_000_000n}.${(v % 1_000_000n).toString().padStart(6, "0")}`;
};

export function moneyDrafts(e: JournalEntry<(typeof MONEY_NOTIFYING_JOURNAL_TYPES)[number]>): MoneyDraft[] {
  const missionId = e.missionId ?? undefined;
  switch (e.type) {
    case "MISSION_SETTLEMENT_OFFERED": {
      const p = e.payload;
      const by = p.byPoster ? "poster" : "performer";
      return [{
        to: p.byPoster ? p.performer : p.poster, type: "SETTLEMENT_OFFERED", title: "Settlement offered",
        body: `The ${by} offers to settle: ${usdc(p.performerAmount)} to the performer, ${usdc(p.posterAmount)} back to the poster.`,
        data: { missionId, by, performerAmount: p.performerAmount, posterAmount: p.posterAmount },
      }];
    }
    case "MISSION_SETTLED": {
      const p = e.payload;
      const data = { missionId, performerAmount: p.performerAmount, posterAmount: p.posterAmount, state: p.missionState, disputeId: p.disputeUuid ?? null };
      const body = `A settlement was accepted: ${usdc(p.performerAmount)} to the performer, ${usdc(p.posterAmount)} back to the poster. The mission is ${p.missionState}.`;
      return [
        { to: p.poster, type: "MISSION_SETTLED", title: "Mission settled", body, data },
        { to: p.performer, type: "MISSION_SETTLED", title: "Mission settled", body, data },
      ];
    }
    case "MISSION_RELEASED": {
      const p = e.payload;
      return [{
        to: p.performer, type: "MISSION_RELEASED", title: "Payment released",
        body: `The poster released ${usdc(p.amount)} of the escrow to you (${usdc(p.remaining)} left in escrow).`,
        data: { missionId, amount: p.amount, performerReceived: p.settlement.performerAmount, remainingAmount: p.remaining },
      }];
    }
    case "MISSION_REFUNDED": {
      const p = e.payload;
      return [{
        to: p.poster, type: "MISSION_REFUNDED", title: "Escrow refunded",
        body: `The performer refunded ${usdc(p.amount)} of the escrow to you (${usdc(p.remaining)} left in escrow).`,
        data: { missionId, amount: p.amount, remainingAmount: p.remaining },
      }];
    }
  }
}
