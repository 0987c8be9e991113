// The personal data vault: initialize, sync (cached summary), export, delete (off-chain only), permissions.
import type { Logger } from "../lib/logger.ts";
import type { ChainContext } from "../lib/ports.ts";
import type { GuildsRepository } from "../repositories/guilds.repository.ts";
import type { MissionsRepository } from "../repositories/missions.repository.ts";
import type { NotificationsRepository } from "../repositories/notifications.repository.ts";
import { validationError } from "../lib/errors.ts";
import type { MissionRow } from "../repositories/missions.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { DeletionCounts, VaultRepository } from "../repositories/vault.repository.ts";
import { missionParties, singleView } from "./mission-view.ts";
import type { PrivacyService } from "./privacy.ts";
import { DEFAULT_PREFERENCES, type Preferences } from "./notification-rules.ts";
import { levelForXp } from "../../domain/levels.ts";
import { defaultPermissions, mergePermissions, type PermissionsPatch, type VaultPermissions } from "./vault-permissions.ts";

export { PRECISIONS, VISIBILITIES, defaultPermissions, mergePermissions, type PermissionsPatch, type VaultPermissions } from "./vault-permissions.ts";

export const DELETE_CONFIRMATION = "DELETE_ALL_MY_DATA";
export const EXPORT_LOG_RETENTION_DAYS = 90;
function withNotificationSwitches(p: VaultPermissions, prefs: Partial<Preferences> | null): VaultPermissions {
  const all = { ...DEFAULT_PREFERENCES, ...(prefs ?? {}) };
  return { ...p, notifications: { push: all.pushEnabled, email: all.emailEnabled, marketing: all.marketingUpdates } };
}

const NOTE =
  "Only off-chain data was deleted. On-chain data stays: your wallet address, mission contracts (escrow addresses), " +
  "reputation attestations, achievement NFTs, guild memberships and XP history remain on the blockchain and in its public index.";

const iso = (unix: bigint | null | undefined) => (unix === null || unix === undefined ? null : new Date(Number(unix) * 1000).toISOString());
const lower = (a: string | null) => (a ? a.toLowerCase() : a);
/** A numeric column as the export writes it: decimal text, null kept. */
const text = (v: bigint | null) => (v === null ? null : v.toString());
type ExportRating = Awaited<ReturnType<VaultRepository["ratings"]>>[number];

export function vaultService(deps: {
  repo: VaultRepository;
  missions: Pick<MissionsRepository, "list">;
  guilds: Pick<GuildsRepository, "guildsOf">;
  notifications: Pick<NotificationsRepository, "preferences" | "savePreferences">;
  chain: ChainContext;
  logger: Logger;
  privacy: Pick<PrivacyService, "lens">;
}) {
  const { repo, notifications: notificationsRepo } = deps;

  async function missionsOf(side: "posterAddress" | "performerAddress", address: string) {
    const out: ReturnType<typeof singleView>[] = [];
    for (let skip = 0; ; skip += 100) {
      const { rows } = await deps.missions.list({ [side]: address, sortBy: "createdAt", sortOrder: "asc", skip, take: 100 });
      // The counterparties' names as they let this user see them.
      const lens = await deps.privacy.lens(address, missionParties(rows));
      out.push(...rows.map((r: MissionRow) => singleView(r, address, lens)));
      if (rows.length < 100) return out;
    }
  }

  return {
    async initialize(user: UserRow) {
      const created = await repo.ensure(user.id, defaultPermissions());
      return { success: true, message: created ? "Vault initialized" : "Vault already initialized" };
    },

    /** Rebuilds the cached summary (counts per category) from the chain views and off-chain rows. */
    async sync(user: UserRow) {
      await repo.ensure(user.id, defaultPermissions());
      const address = user.evmAddress.toLowerCase();
      const [counts, stats] = await Promise.all([repo.counts(address, user.id), repo.stats(address)]);
      const summary = {
        missionsPosted: counts.missionsPosted, missionsPerformed: counts.missionsPerformed,
        totalXP: stats?.totalXP ?? 0, level: stats?.level ?? levelForXp(0), xpEntries: counts.xpEntries,
        guilds: counts.guilds, achievements: counts.achievements,
        ratingsGiven: counts.ratingsGiven, ratingsReceived: counts.ratingsReceived, disputes: counts.disputes,
        notifications: counts.notifications, deviceTokens: counts.deviceTokens, locationHistory: counts.locationHistory,
      };
      const at = await repo.saveSummary(user.id, summary);
      return { success: true, lastSyncedAt: at.toISOString(), summary };
    },

    async export(user: UserRow) {
      const address = user.evmAddress.toLowerCase();
      const [posted, performed, stats, history, guilds, achievements, given, received, disputes, prefs] = await Promise.all([
        missionsOf("posterAddress", address),
        missionsOf("performerAddress", address),
        repo.stats(address),
        repo.xpHistory(address),
        deps.guilds.guildsOf(address),
        repo.achievements(address),
        repo.ratings(address, "rater"),
        repo.ratings(address, "ratee"),
        repo.disputes(address),
        notificationsRepo.preferences(address),
      ]);
      const rating = (r: ExportRating) => ({
        uid: r.uid, missionId: r.missionId, missionOnChainId: text(r.missionOnChainId), rater: lower(r.rater), ratee: lower(r.ratee),
        score: r.score, comment: r.comment ?? null, commentHash: r.commentHash, counted: r.counted,
        reputationDelta: r.reputationDelta, attestedAt: iso(r.time), transactionHash: r.txHash,
      });
      const data = {
        exportedAt: new Date().toISOString(),
        user: { id: user.id, evmAddress: address, displayName: user.displayName, bio: user.bio, createdAt: user.createdAt.toISOString() },
        missions: { posted, performed },
        xp: {
          total: stats?.totalXP ?? 0,
          level: stats?.level ?? levelForXp(0),
          history: history.map((h) => ({
            id: h.id, xpDelta: h.xpDelta, source: h.source, reason: h.reason, missionId: h.missionId,
            missionOnChainId: text(h.missionOnChainId), balanceAfter: h.balanceAfter, multiplierBps: h.multiplierBps,
            createdAt: iso(h.createdAt), transactionHash: h.txHash,
          })),
        },
        guilds: guilds.map((g) => ({
          guildId: g.guildUuid, name: g.guildName, isCurator: g.isCurator, isOfficer: g.isOfficer, isAdmin: g.isAdmin,
          guildXP: g.guildXP, joinedAt: iso(g.joinedAt),
        })),
        achievements: achievements.map((a) => ({
          tokenId: a.tokenId.toString(), achievementId: a.achievementId.toString(), name: a.name, description: a.description, image: a.image,
          type: a.type, missionId: a.missionId, mintedAt: iso(a.mintedAt), transactionHash: a.txHash,
        })),
        ratings: { given: given.map(rating), received: received.map(rating) },
        disputes: disputes.map((d) => ({
          id: d.id, onChainId: d.onChainId.toString(), missionId: d.missionId,
          role: lower(d.poster) === address ? "poster" : "performer",
          initiatedByMe: lower(d.initiator) === address, state: d.state, outcome: d.outcome, splitPercentage: d.splitPercentage,
          reason: d.reason ?? null, evidence: d.evidence ?? null,
          createdAt: iso(d.createdAt), resolvedAt: iso(d.resolvedAt), finalizedAt: iso(d.finalizedAt), transactionHash: d.raisedTxHash,
        })),
        notifications: { preferences: { ...DEFAULT_PREFERENCES, ...(prefs ?? {}) } },
      };
      await repo.logExport(user.id, Buffer.byteLength(JSON.stringify(data)));
      return data;
    },

    async delete(user: UserRow, confirmation: string) {
      if (confirmation !== DELETE_CONFIRMATION) {
        throw validationError([{ field: "body.confirmation", reason: `must be exactly "${DELETE_CONFIRMATION}"` }]);
      }
      // The chain head now: journal entries up to it predate the deletion, so a reactor replay or a re-index
      // never re-creates this user's notifications (api/reactors/notifications.ts). RPC down: the time is used.
      const chainBlock = await Promise.race([
        deps.chain.publicClient.getBlockNumber({ cacheTime: 0 }).catch(() => null),
        new Promise<null>((r) => setTimeout(() => r(null), 3_000).unref()),
      ]);
      const deleted: DeletionCounts = await repo.deleteAll({ id: user.id, address: user.evmAddress.toLowerCase() }, defaultPermissions(), chainBlock);
      deps.logger.info("vault deleted", { userId: user.id, deleted });
      return {
        success: true,
        message: "All deletable off-chain data was deleted: profile, location history, notification preferences, device tokens, notifications, webhooks and session data.",
        deletedAt: new Date().toISOString(),
        note: NOTE,
      };
    },

    async permissions(user: UserRow): Promise<VaultPermissions> {
      await repo.ensure(user.id, defaultPermissions());
      return withNotificationSwitches(
        mergePermissions((await repo.find(user.id))?.permissions, {}),
        await notificationsRepo.preferences(user.evmAddress),
      );
    },

    /**
     * The notification switches have one home, the preferences that /notifications/preferences edits and
     * the notification reactor obeys; the vault's `notifications` section reads and writes them there.
     */
    async updatePermissions(user: UserRow, patch: PermissionsPatch): Promise<VaultPermissions> {
      await repo.ensure(user.id, defaultPermissions());
      const { notifications: switches, ...rest } = patch;
      if (switches && Object.keys(switches).length > 0) {
        const current = { ...DEFAULT_PREFERENCES, ...((await notificationsRepo.preferences(user.evmAddress)) ?? {}) };
        await notificationsRepo.savePreferences(user.evmAddress, {
          ...current,
          ...(switches.push === undefined ? {} : { pushEnabled: switches.push }),
          ...(switches.email === undefined ? {} : { emailEnabled: switches.email }),
          ...(switches.marketing === undefined ? {} : { marketingUpdates: switches.marketing }),
        });
      }
      const stored = await repo.updatePermissions(user.id, (old) => mergePermissions(old, rest));
      return withNotificationSwitches(stored, await notificationsRepo.preferences(user.evmAddress));
    },

    purgeExportLogs: () => repo.purgeExportLogs(EXPORT_LOG_RETENTION_DAYS),
  };
}

export type VaultService = ReturnType<typeof vaultService>;
