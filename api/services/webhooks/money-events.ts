// The webhook events of money in trouble (pure): a settlement offered, a settlement accepted, a partial
// release, a partial refund. Both parties hear of each (events.ts); amounts are base units (integer
// strings), as in the other webhook events.
import type { JournalEntry } from "../../../domain/index.ts";

export const MONEY_WEBHOOK_EVENTS = ["mission.settlement_offered", "mission.settled", "mission.released", "mission.refunded"] as const;
export const MONEY_WEBHOOK_JOURNAL_TYPES = ["MISSION_SETTLEMENT_OFFERED", "MISSION_SETTLED", "MISSION_RELEASED", "MISSION_REFUNDED"] as const;
type MoneyEntry = JournalEntry<(typeof MONEY_WEBHOOK_JOURNAL_TYPES)[number]>;

export function moneyWebhook(e: MoneyEntry): { event: (typeof MONEY_WEBHOOK_EVENTS)[number]; extra: Record<string, unknown> } {
  switch (e.type) {
    case "MISSION_SETTLEMENT_OFFERED": {
      const p = e.payload;
      return {
        event: "mission.settlement_offered",
        extra: { by: p.byPoster ? "poster" : "performer", performerAmount: p.performerAmount, posterAmount: p.posterAmount },
      };
    }
    case "MISSION_SETTLED": {
      const p = e.payload;
      return {
        event: "mission.settled",
        extra: { performerAmount: p.performerAmount, posterAmount: p.posterAmount, state: p.missionState, disputeId: p.disputeUuid ?? null },
      };
    }
    case "MISSION_RELEASED": {
      const p = e.payload;
      return { event: "mission.released", extra: { amount: p.amount, remainingAmount: p.remaining, performerReceived: p.settlement.performerAmount } };
    }
    case "MISSION_REFUNDED": {
      const p = e.payload;
      return { event: "mission.refunded", extra: { amount: p.amount, remainingAmount: p.remaining } };
    }
  }
}
