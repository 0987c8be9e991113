// Which notifications a journal entry creates (pure; unit-tested in test/unit/community-notifications.test.ts).
import { type JournalEntry, type JournalType, ROLE_CURATOR, ROLE_OFFICER } from "../../domain/index.ts";
import { MONEY_NOTIFICATION_TYPES, MONEY_NOTIFYING_JOURNAL_TYPES, moneyDrafts } from "./notification-rules.money.ts";

export const NOTIFICATION_TYPES = [
  "MISSION_ACCEPTED",
  "MISSION_SUBMITTED",
  "MISSION_COMPLETED",
  "MISSION_DISPUTED",
  "GUILD_INVITE",
  "GUILD_PROMOTED",
  "XP_LEVEL_UP",
  "ACHIEVEMENT_EARNED",
  "RATING_RECEIVED",
  "DISPUTE_RESOLVED",
  "WEBHOOK_DISABLED",
  // Extension: the spec's list has no expiry, but an expiry refunds the poster and ends the performer's claim.
  "MISSION_EXPIRED",
  // Extensions: money in trouble (settlement offers, settlements, partial releases and refunds).
  ...MONEY_NOTIFICATION_TYPES,
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface Preferences {
  pushEnabled: boolean;
  emailEnabled: boolean;
  missionUpdates: boolean;
  guildUpdates: boolean;
  xpUpdates: boolean;
  marketingUpdates: boolean;
  /** Extension: RATING_RECEIVED is "optional (not on by default)" in the spec. */
  ratingUpdates: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  pushEnabled: true,
  emailEnabled: false,
  missionUpdates: true,
  guildUpdates: true,
  xpUpdates: true,
  marketingUpdates: false,
  ratingUpdates: false,
};

/** The preference switch that governs each type (all on by default except ratingUpdates). */
export const PREFERENCE_OF: Record<NotificationType, keyof Preferences> = {
  MISSION_ACCEPTED: "missionUpdates",
  MISSION_SUBMITTED: "missionUpdates",
  MISSION_COMPLETED: "missionUpdates",
  MISSION_DISPUTED: "missionUpdates",
  DISPUTE_RESOLVED: "missionUpdates",
  GUILD_INVITE: "guildUpdates",
  GUILD_PROMOTED: "guildUpdates",
  XP_LEVEL_UP: "xpUpdates",
  ACHIEVEMENT_EARNED: "xpUpdates",
  RATING_RECEIVED: "ratingUpdates",
  // An account notice: created directly (api/services/webhooks/disabled-notice.ts), never filtered.
  WEBHOOK_DISABLED: "missionUpdates",
  MISSION_EXPIRED: "missionUpdates",
  SETTLEMENT_OFFERED: "missionUpdates",
  MISSION_SETTLED: "missionUpdates",
  MISSION_RELEASED: "missionUpdates",
  MISSION_REFUNDED: "missionUpdates",
};

export const wanted = (type: NotificationType, prefs: Preferences): boolean => prefs[PREFERENCE_OF[type]];

export interface Draft {
  address: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

const lc = (v: unknown): string | null => (typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : null);
const ZERO = "0x0000000000000000000000000000000000000000";

/** The journal types that can notify someone (the reactor's filter). */
export const NOTIFYING_JOURNAL_TYPES = [
  "MISSION_ACCEPTED", "MISSION_SUBMITTED", "MISSION_COMPLETED", "MISSION_EXPIRED", "DISPUTE_RAISED", "DISPUTE_RESOLVED",
  "DISPUTE_FINALIZED", "ROLES_CHANGED", "LEVEL_UP", "NFT_MINTED", "RATING_ATTESTED", ...MONEY_NOTIFYING_JOURNAL_TYPES,
] as const satisfies readonly JournalType[];

/** Drafts for one journal entry; addresses lowercase, no zero address, no duplicates. */
export function draftsFor(e: JournalEntry): Draft[] {
  const out: Draft[] = [];
  const push = (addr: unknown, type: NotificationType, title: string, body: string, data: Record<string, unknown>) => {
    const a = lc(addr);
    if (!a || a === ZERO || out.some((d) => d.address === a && d.type === type)) return;
    out.push({ address: a, type, title, body, data });
  };
  switch (e.type) {
    case "MISSION_ACCEPTED": {
      const p = e.payload;
      push(p.poster, "MISSION_ACCEPTED", "Mission accepted", "Someone accepted your mission.", {
        missionId: p.id ?? e.missionId ?? undefined, performerAddress: lc(p.performer),
      });
      break;
    }
    case "MISSION_SUBMITTED": {
      const p = e.payload;
      push(p.poster, "MISSION_SUBMITTED", "Proof submitted", "The performer submitted proof for your mission.", {
        missionId: p.id ?? e.missionId ?? undefined, proofHash: p.proofHash,
      });
      break;
    }
    case "MISSION_COMPLETED": {
      const p = e.payload;
      // An accepted settlement already told both parties (MISSION_SETTLED says how the mission ended).
      if (p.via === "settlement") break;
      const data = { missionId: p.id ?? e.missionId ?? undefined, viaDispute: p.viaDispute === true, posterAddress: lc(p.poster), performerAddress: lc(p.performer) };
      push(p.poster, "MISSION_COMPLETED", "Mission completed", "Your mission is completed.", data);
      push(p.performer, "MISSION_COMPLETED", "Mission completed", "A mission you performed is completed.", data);
      break;
    }
    case "MISSION_EXPIRED": {
      const p = e.payload;
      const data = { missionId: p.id ?? e.missionId ?? undefined, refundAmount: String(p.refund ?? ""), posterAddress: lc(p.poster), performerAddress: lc(p.performer) };
      push(p.poster, "MISSION_EXPIRED", "Mission expired", "Your mission expired; the reward was refunded to you.", data);
      push(p.performer, "MISSION_EXPIRED", "Mission expired", "A mission you accepted expired before proof was submitted.", data);
      break;
    }
    case "DISPUTE_RAISED": {
      const p = e.payload;
      const initiator = lc(p.initiator);
      const other = initiator === lc(p.poster) ? p.performer : p.poster;
      push(other, "MISSION_DISPUTED", "Mission disputed", "A dispute was raised on your mission.", {
        missionId: p.missionUuid ?? e.missionId, disputeId: p.id, initiatorAddress: initiator,
      });
      break;
    }
    case "DISPUTE_RESOLVED":
    case "DISPUTE_FINALIZED": {
      const p = e.payload;
      const final = e.type !== "DISPUTE_RESOLVED";
      const data = {
        missionId: e.missionId, disputeId: p.id, outcome: p.outcome, splitPercentage: p.splitPercentage ?? null, final,
      };
      const body = final ? `The dispute is final: ${String(p.outcome)}.` : `The resolver decided: ${String(p.outcome)}.`;
      push(p.poster, "DISPUTE_RESOLVED", "Dispute resolved", body, data);
      push(p.performer, "DISPUTE_RESOLVED", "Dispute resolved", body, data);
      break;
    }
    case "ROLES_CHANGED": {
      const p = e.payload;
      const before = Number(p.previousRoles ?? 0);
      const after = Number(p.roles ?? 0);
      const gained = after & ~before & (ROLE_CURATOR | ROLE_OFFICER);
      if (gained) {
        const role = gained & ROLE_OFFICER ? "officer" : "curator";
        push(p.member, "GUILD_PROMOTED", "Promoted", `You are now a ${role} of your guild.`, {
          guildOnChainId: String(p.guildId), roles: after, isCurator: (after & ROLE_CURATOR) !== 0, isOfficer: (after & ROLE_OFFICER) !== 0,
        });
      }
      break;
    }
    case "LEVEL_UP": {
      const p = e.payload;
      // Every account's first XP moves it from 0 to the starting level 1: not news.
      if (Number(p.level) <= 1) break;
      push(p.user ?? e.account, "XP_LEVEL_UP", "Level up", `You reached level ${String(p.level)} (${String(p.levelTitle)}).`, {
        level: p.level, previousLevel: p.previousLevel, levelTitle: p.levelTitle, totalXP: p.totalXP,
      });
      break;
    }
    case "NFT_MINTED": {
      const p = e.payload;
      if (p.soulbound === true)
        push(p.to ?? e.account, "ACHIEVEMENT_EARNED", "Achievement unlocked", `You earned "${String(p.name ?? "an achievement")}".`, {
          tokenId: p.tokenId, achievementId: p.achievementId, name: p.name ?? null, missionId: p.missionUuid ?? null,
        });
      break;
    }
    case "MISSION_SETTLEMENT_OFFERED":
    case "MISSION_SETTLED":
    case "MISSION_RELEASED":
    case "MISSION_REFUNDED":
      for (const d of moneyDrafts(e)) push(d.to, d.type, d.title, d.body, d.data);
      break;
    case "RATING_ATTESTED": {
      const p = e.payload;
      if (p.counted === true)
        push(p.ratee ?? e.account, "RATING_RECEIVED", "New rating", `You were rated ${String(p.score)}/5.`, {
          ratingId: p.uid, missionId: p.missionUuid ?? null, score: p.score, raterAddress: lc(p.rater),
        });
      break;
    }
  }
  return out;
}
