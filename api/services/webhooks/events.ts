// Which webhook event a journal entry is, who hears of it and what `data` carries (pure).
// Parties are named by lowercase address here; the reactor turns them into user ids.
import type { JournalEntry, JournalType } from "../../../domain/index.ts";
import { MONEY_WEBHOOK_EVENTS, MONEY_WEBHOOK_JOURNAL_TYPES, moneyWebhook } from "./money-events.ts";

export const WEBHOOK_EVENTS = [
  "mission.created",
  "mission.accepted",
  "mission.submitted",
  "mission.completed",
  "mission.cancelled",
  "mission.expired",
  "mission.disputed",
  "dispute.resolved",
  "rating.received",
  ...MONEY_WEBHOOK_EVENTS,
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The journal types that become webhook events (the reactor's filter). */
export const WEBHOOK_JOURNAL_TYPES = [
  "MISSION_CREATED", "MISSION_ACCEPTED", "MISSION_SUBMITTED", "MISSION_COMPLETED", "MISSION_CANCELLED",
  "MISSION_EXPIRED", "DISPUTE_RAISED", "DISPUTE_RESOLVED", "DISPUTE_FINALIZED", "RATING_ATTESTED",
  ...MONEY_WEBHOOK_JOURNAL_TYPES,
] as const satisfies readonly JournalType[];

export interface WebhookDraft {
  event: WebhookEvent;
  /** Lowercase addresses of the users whose endpoints receive it (poster, performer or ratee). */
  recipients: string[];
  posterAddress: string | null;
  performerAddress: string | null;
  /** Event-specific fields, added after the common ones. */
  extra: Record<string, unknown>;
}

const ZERO = "0x0000000000000000000000000000000000000000";
const addr = (v: unknown): string | null =>
  typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) && v.toLowerCase() !== ZERO ? v.toLowerCase() : null;
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const iso = (seconds: unknown): string | null => {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : null;
};

/** A mission event for its parties, or for the poster alone. */
function missionDraft(
  p: { poster?: string | null; performer?: string | null },
  event: WebhookEvent,
  extra: Record<string, unknown>,
  posterOnly = false,
): WebhookDraft {
  const poster = addr(p.poster);
  const performer = addr(p.performer);
  const recipients = (posterOnly ? [poster] : [poster, performer]).filter((a): a is string => a !== null);
  return { event, recipients: [...new Set(recipients)], posterAddress: poster, performerAddress: performer, extra };
}

export function webhookDraftFor(e: JournalEntry): WebhookDraft | null {
  switch (e.type) {
    case "MISSION_CREATED": {
      const p = e.payload;
      return missionDraft(p, "mission.created", {
        missionOnChainId: str(p.missionId), rewardAmount: str(p.reward), expiresAt: iso(p.expiresAt),
      }, true);
    }
    case "MISSION_ACCEPTED":
      return missionDraft(e.payload, "mission.accepted", {});
    case "MISSION_SUBMITTED": {
      const p = e.payload;
      return missionDraft(p, "mission.submitted", { proofHash: str(p.proofHash), reviewDeadline: iso(p.reviewDeadline) });
    }
    case "MISSION_COMPLETED": {
      const p = e.payload;
      return missionDraft(p, "mission.completed", {
        viaDispute: p.viaDispute === true, disputeId: p.viaDispute === true ? str(p.disputeId) : null, via: p.via ?? null,
      });
    }
    case "MISSION_CANCELLED": {
      const p = e.payload;
      const byDispute = p.viaDispute === true;
      return missionDraft(p, "mission.cancelled", {
        refundAmount: byDispute ? str(p.payout.posterAmount) : str(p.refund),
        viaDispute: byDispute, disputeId: byDispute ? str(p.disputeId) : null, via: p.via ?? null,
      });
    }
    case "MISSION_SETTLEMENT_OFFERED":
    case "MISSION_SETTLED":
    case "MISSION_RELEASED":
    case "MISSION_REFUNDED": {
      const m = moneyWebhook(e);
      return missionDraft(e.payload, m.event, m.extra);
    }
    case "MISSION_EXPIRED":
      return missionDraft(e.payload, "mission.expired", { refundAmount: str(e.payload.refund) });
    case "DISPUTE_RAISED": {
      const p = e.payload;
      return missionDraft(p, "mission.disputed", { disputeId: str(p.id), initiatorAddress: addr(p.initiator) });
    }
    case "DISPUTE_RESOLVED":
    case "DISPUTE_FINALIZED": {
      const p = e.payload;
      return missionDraft(p, "dispute.resolved", {
        disputeId: str(p.id), outcome: str(p.outcome), splitPercentage: str(p.splitPercentage), final: e.type === "DISPUTE_FINALIZED",
      });
    }
    case "RATING_ATTESTED": {
      const p = e.payload;
      const ratee = addr(p.ratee ?? e.account);
      if (p.counted !== true || !ratee) return null;
      return {
        event: "rating.received", recipients: [ratee], posterAddress: null, performerAddress: null,
        extra: { ratingId: str(p.uid), score: Number(p.score), raterAddress: addr(p.rater) },
      };
    }
    default:
      return null;
  }
}

/** The mission's UUID: the payload's `missionUuid` for disputes and ratings, else the entry's. */
export const missionIdOf = (e: JournalEntry): string | null =>
  ("missionUuid" in e.payload && typeof e.payload.missionUuid === "string" ? e.payload.missionUuid : null) ?? e.missionId;
