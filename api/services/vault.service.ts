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

const iso = (unix: string | number | null | undefined) => (unix === null || unix === undefined ? null : new Date(Number(unix) * 1000).toISOString());
const lower = (a: string | null) => (a ? a.toLowerCase() : a);

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
        missionsPosted: counts.missions_posted, missionsPerformed: counts.missions_performed,
        totalXP: stats?.total_xp ?? 0, level: stats?.level ?? levelForXp(0), xpEntries: counts.xp_entries,
        guilds: counts.guilds, achievements: counts.achievements,
        ratingsGiven: counts.ratings_given, ratingsReceived: counts.ratings_received, disputes: counts.disputes,
        notifications: counts.notifications, deviceTokens: counts.device_tokens, locationHistory: counts.location_history,
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
      const rating = (r: any) => ({
        uid: r.uid, missionId: r.mission_id, missionOnChainId: r.mission_on_chain_id, rater: lower(r.rater), ratee: lower(r.ratee),
        score: r.score, comment: r.comment ?? null, commentHash: r.comment_hash, counted: r.counted,
        reputationDelta: r.reputation_delta, attestedAt: iso(r.time), transactionHash: r.tx_hash,
      });
      const data = {
        exportedAt: new Date().toISOString(),
        user: { id: user.id, evmAddress: address, displayName: user.displayName, bio: user.bio, createdAt: user.createdAt.toISOString() },
        missions: { posted, performed },
        xp: {
          total: stats?.total_xp ?? 0,
          level: stats?.level ?? levelForXp(0),
          history: history.map((h: any) => ({
            id: h.id, xpDelta: h.xp_delta, source: h.source, reason: h.reason, missionId: h.mission_id,
            missionOnChainId: h.mission_on_chain_id, balanceAfter: h.balance_after, multiplierBps: h.multiplier_bps,
            createdAt: iso(h.created_at), transactionHash: h.tx_hash,
          })),
        },
        guilds: guilds.map((g) => ({
          guildId: g.guild_uuid, name: g.guild_name, isCurator: g.is_curator, isOfficer: g.is_officer, isAdmin: g.is_admin,
          guildXP: g.guild_xp, joinedAt: iso(g.joined_at),
        })),
        achievements: achievements.map((a: any) => ({
          tokenId: a.token_id, achievementId: a.achievement_id, name: a.name, description: a.description, image: a.image,
          type: a.type, missionId: a.mission_id, mintedAt: iso(a.minted_at), transactionHash: a.tx_hash,
        })),
        ratings: { given: given.map(rating), received: received.map(rating) },
        disputes: disputes.map((d: any) => ({
          id: d.id, onChainId: d.on_chain_id, missionId: d.mission_id,
          role: lower(d.poster) === address ? "poster" : "performer",
          initiatedByMe: lower(d.initiator) === address, state: d.state, outcome: d.outcome, splitPercentage: d.split_percentage,
          reason: d.reason ?? null, evidence: d.evidence ?? null,
          createdAt: iso(d.created_at), resolvedAt: iso(d.resolved_at), finalizedAt: iso(d.finalized_at), transactionHash: d.raised_tx_hash,
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
