// Which notifications a journal entry creates (pure; unit-tested in test/unit/community-notifications.test.ts).
import type { JournalEntry } from "../repositories/journal.repository.ts";

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
};

export const wanted = (type: NotificationType, prefs: Preferences): boolean => prefs[PREFERENCE_OF[type]];

export interface Draft {
  address: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

const ROLE_CURATOR = 1;
const ROLE_OFFICER = 2;
const lc = (v: unknown): string | null => (typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : null);
const ZERO = "0x0000000000000000000000000000000000000000";

/** Drafts for one journal entry; addresses lowercase, no zero address, no duplicates. */
export function draftsFor(e: JournalEntry): Draft[] {
  const p = e.payload;
  const missionId = (p.id as string | undefined) ?? e.missionId ?? undefined;
  const out: Draft[] = [];
  const push = (addr: unknown, type: NotificationType, title: string, body: string, data: Record<string, unknown>) => {
    const a = lc(addr);
    if (!a || a === ZERO || out.some((d) => d.address === a && d.type === type)) return;
    out.push({ address: a, type, title, body, data });
  };
  switch (e.type) {
    case "MISSION_ACCEPTED":
      push(p.poster, "MISSION_ACCEPTED", "Mission accepted", "Someone accepted your mission.", {
        missionId, performerAddress: lc(p.performer),
      });
      break;
    case "MISSION_SUBMITTED":
      push(p.poster, "MISSION_SUBMITTED", "Proof submitted", "The performer submitted proof for your mission.", {
        missionId, proofHash: p.proofHash,
      });
      break;
    case "MISSION_COMPLETED": {
      const data = { missionId, viaDispute: p.viaDispute === true, posterAddress: lc(p.poster), performerAddress: lc(p.performer) };
      push(p.poster, "MISSION_COMPLETED", "Mission completed", "Your mission is completed.", data);
      push(p.performer, "MISSION_COMPLETED", "Mission completed", "A mission you performed is completed.", data);
      break;
    }
    case "DISPUTE_RAISED": {
      const initiator = lc(p.initiator);
      const other = initiator === lc(p.poster) ? p.performer : p.poster;
      push(other, "MISSION_DISPUTED", "Mission disputed", "A dispute was raised on your mission.", {
        missionId: p.missionUuid ?? e.missionId, disputeId: p.id, initiatorAddress: initiator,
      });
      break;
    }
    case "DISPUTE_RESOLVED":
    case "DISPUTE_FINALIZED": {
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
    case "LEVEL_UP":
      // Every account's first XP moves it from 0 to the starting level 1: not news.
      if (Number(p.level) <= 1) break;
      push(p.user ?? e.account, "XP_LEVEL_UP", "Level up", `You reached level ${String(p.level)} (${String(p.levelTitle)}).`, {
        level: p.level, previousLevel: p.previousLevel, levelTitle: p.levelTitle, totalXP: p.totalXP,
      });
      break;
    case "NFT_MINTED":
      if (p.soulbound === true)
        push(p.to ?? e.account, "ACHIEVEMENT_EARNED", "Achievement unlocked", `You earned "${String(p.name ?? "an achievement")}".`, {
          tokenId: p.tokenId, achievementId: p.achievementId, name: p.name ?? null, missionId: p.missionUuid ?? null,
        });
      break;
    case "RATING_ATTESTED":
      if (p.counted === true)
        push(p.ratee ?? e.account, "RATING_RECEIVED", "New rating", `You were rated ${String(p.score)}/5.`, {
          ratingId: p.uid, missionId: p.missionUuid ?? null, score: p.score, raterAddress: lc(p.rater),
        });
      break;
  }
  return out;
}
