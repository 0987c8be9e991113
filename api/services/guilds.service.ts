// Guild reads (indexed chain data) and writes relayed to GuildRegistry (createGuild, join, leave,
// setRoles, publishToBoard). Level gates read the one unlock table; join reads the guild's criterion.
import type { Address } from "viem";
import type { z } from "zod";
import { guildRegistryAbi } from "../../abis/index.ts";
import { guildUuid, ROLE_ADMIN, ROLE_CURATOR, ROLE_OFFICER } from "../../domain/index.ts";
import { hasUnlock, levelRequiredFor, type Unlock } from "../../domain/unlocks.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { BoardRow, GuildRow, GuildsRepository, MemberRow } from "../repositories/guilds.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { CreateGuildBody, GuildListQuery, PublishBody, RolesBody } from "../routes/community/guilds.schemas.ts";
import type { SetupGate } from "./wallet/wallet-setup.service.ts";
import { OPEN_LENS, type PrivacyLens, type PrivacyService } from "./privacy.ts";

const iso = (unixSeconds: bigint) => new Date(Number(unixSeconds) * 1000).toISOString();

export const guildView = (g: GuildRow) => ({
  id: g.id,
  onChainId: String(g.onChainId),
  contractAddress: g.contractAddress,
  name: g.name,
  displayName: g.displayName,
  description: g.description,
  category: g.category,
  memberCount: g.memberCount,
  totalCompleted: g.totalCompleted,
  totalEarned: g.totalEarned.toString(),
  guildReputation: g.guildReputation,
  guildFeeBps: g.feeBps,
});

/** `lens`: the viewer's (privacy.ts); the caller's own membership is shown with the open lens. */
export const memberView = (m: MemberRow, lens: PrivacyLens = OPEN_LENS) => ({
  id: m.id,
  user: {
    id: m.userId ?? m.account.toLowerCase(),
    displayName: lens.field(m.account, "displayName", m.displayName ?? ""),
    evmAddress: m.account.toLowerCase(),
  },
  isCurator: m.isCurator,
  isOfficer: m.isOfficer,
  isAdmin: m.isAdmin,
  guildXP: m.guildXP,
  joinedAt: iso(m.joinedAt),
});

/** The body of POST /guilds, as the route's schema validates it. */
export type NewGuild = z.infer<typeof CreateGuildBody>;

/** 403 INELIGIBLE naming the level rule, or nothing when `level` has `unlock`. */
function requireUnlock(level: number, unlock: Unlock, what: string) {
  const needed = levelRequiredFor(unlock);
  if (!hasUnlock(level, unlock)) {
    throw new AppError("INELIGIBLE", `${what} needs level ${needed}`, [{ field: "level", reason: `level ${level} is below ${needed}` }]);
  }
}

export function guildsService(deps: {
  repo: GuildsRepository;
  chain: ChainContext;
  relayer: Relayer | null;
  setup: SetupGate;
  privacy: Pick<PrivacyService, "lens">;
  mission: (id: string, viewer?: Address) => Promise<Record<string, unknown> & { onChainId: string; guild: { id: string } | null }>;
}) {
  const { repo } = deps;
  async function mustFind(id: string): Promise<GuildRow> {
    const g = await repo.find(id);
    if (!g) throw new AppError("GUILD_NOT_FOUND", "Guild not found");
    return g;
  }
  function target() {
    const registry = deps.chain.deployment?.contracts.GuildRegistry?.address;
    if (!deps.relayer || !registry) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is unavailable");
    return { relayer: deps.relayer, t: { address: registry as Address, abi: guildRegistryAbi } };
  }
  async function detail(g: GuildRow, viewer?: UserRow | null) {
    return {
      ...guildView(g),
      treasury: g.treasury,
      creator: g.creator,
      createdAt: iso(g.createdAt),
      minReputation: await repo.minReputation(g.id),
      membership: viewer ? await membership(g, viewer.evmAddress) : null,
    };
  }
  const membership = async (g: GuildRow, address: string) => {
    const m = await repo.member(g.onChainId, address);
    return m && m.active ? memberView(m) : null;
  };

  return {
    list: async (q: z.infer<typeof GuildListQuery>) => (await repo.list(q)).map(guildView),
    get: async (id: string, viewer?: UserRow | null) => detail(await mustFind(id), viewer),
    /** The caller becomes the admin (every role) and the treasury; `name` is the registry's unique slug. */
    async create(user: UserRow, body: NewGuild) {
      requireUnlock((await repo.standing(user.evmAddress)).level, "guild_creation", "Creating a guild");
      if (await repo.findByName(body.name)) throw new AppError("GUILD_NAME_TAKEN", `A guild named ${body.name} already exists`);
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const me = user.evmAddress as Address;
      const tx = await relayer.send("createGuild", [me, body.name, body.name, body.description, body.category, body.guildFeeBps, me], t);
      const created = tx.events.find((e) => e.eventName === "GuildCreated");
      if (!created) throw new AppError("INTERNAL_ERROR", "createGuild emitted no GuildCreated");
      // The UUID is derived from chain data, so the criterion is stored even before the indexer has the guild.
      const id = guildUuid(deps.chain.chainId, t.address, Number(created.args.guildId));
      if (body.minReputation !== undefined) await repo.setMinReputation(id, body.minReputation);
      const g = await repo.find(id);
      if (!g) throw new AppError("INDEXER_UNAVAILABLE", `The guild was created (${tx.hash}) but is not indexed yet`);
      return detail(g, user);
    },
    async members(id: string, viewer?: string) {
      const g = await mustFind(id);
      const rows = await repo.members(g.onChainId);
      const lens = await deps.privacy.lens(viewer, rows.map((m) => m.account));
      return rows.map((m) => memberView(m, lens));
    },
    async board(id: string, viewer?: Address) {
      const g = await mustFind(id);
      const rows = await repo.board(g.onChainId);
      return Promise.all(
        rows.map(async (b: BoardRow) => ({
          id: b.id,
          missionId: b.missionId,
          curatorId: b.curatorId ?? b.curator.toLowerCase(),
          mission: await deps.mission(b.missionId, viewer),
          minGuildXP: b.minGuildXP,
          notes: b.notes,
          featured: b.featured,
          createdAt: iso(b.createdAt),
        })),
      );
    },
    async join(user: UserRow, id: string) {
      const g = await mustFind(id);
      if (await membership(g, user.evmAddress)) throw new AppError("ALREADY_MEMBER", "You are already a member of this guild");
      const min = await repo.minReputation(g.id);
      if (min !== null) {
        const { reputation } = await repo.standing(user.evmAddress);
        if (reputation < min) {
          throw new AppError("INELIGIBLE", `This guild admits members with reputation ${min} or more`, [
            { field: "minReputation", reason: `reputation ${reputation} is below ${min}` },
          ]);
        }
      }
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send("join", [g.onChainId, user.evmAddress as Address], t);
      return { success: true, transactionHash: tx.hash, guild: guildView((await repo.find(g.id)) ?? g), membership: await membership(g, user.evmAddress) };
    },
    async leave(user: UserRow, id: string) {
      const g = await mustFind(id);
      const me = await membership(g, user.evmAddress);
      if (!me) throw new AppError("NOT_MEMBER", "You are not a member of this guild");
      if (me.isAdmin && (await repo.members(g.onChainId)).filter((m) => m.isAdmin).length <= 1) {
        throw new AppError("INVALID_STATE", "The last admin cannot leave the guild");
      }
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send("leave", [g.onChainId, user.evmAddress as Address], t);
      return { success: true, transactionHash: tx.hash, guild: guildView((await repo.find(g.id)) ?? g), membership: await membership(g, user.evmAddress) };
    },
    /** Admins only; the admin bit is kept as it is. `target`: the member's user id or address. */
    async setRoles(user: UserRow, id: string, target_: string, body: z.infer<typeof RolesBody>) {
      const g = await mustFind(id);
      if (!(await membership(g, user.evmAddress))?.isAdmin) throw new AppError("FORBIDDEN", "Changing roles requires the admin role in this guild");
      const m = await repo.memberByUser(g.onChainId, target_);
      if (!m?.active) throw new AppError("NOT_MEMBER", "The user is not a member of this guild");
      const isCurator = body.isCurator ?? m.isCurator;
      const isOfficer = body.isOfficer ?? m.isOfficer;
      if (isCurator === m.isCurator && isOfficer === m.isOfficer) {
        throw new AppError("INVALID_STATE", "The member already has these roles: nothing to change");
      }
      if (isCurator && !m.isCurator) requireUnlock((await repo.standing(m.account)).level, "curation", "Curating");
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const roles = (isCurator ? ROLE_CURATOR : 0) | (isOfficer ? ROLE_OFFICER : 0) | (m.isAdmin ? ROLE_ADMIN : 0);
      const tx = await relayer.send("setRoles", [g.onChainId, m.account as Address, roles, user.evmAddress as Address], t);
      const fresh = await repo.member(g.onChainId, m.account);
      return { success: true, transactionHash: tx.hash, member: fresh ? memberView(fresh) : null };
    },
    async publish(user: UserRow, id: string, body: z.infer<typeof PublishBody>) {
      const g = await mustFind(id);
      const me = await membership(g, user.evmAddress);
      if (!me?.isCurator) throw new AppError("FORBIDDEN", "Publishing to the board requires the curator role in this guild");
      const mission = await deps.mission(body.missionId, user.evmAddress as Address);
      if (mission.guild?.id !== g.id) {
        throw validationError([{ field: "body.missionId", reason: "the mission does not belong to this guild" }]);
      }
      const listed = (await repo.board(g.onChainId)).find((b) => b.missionId === mission.id);
      if (listed && listed.minGuildXP === body.minGuildXP && listed.featured === body.featured && listed.notes === body.notes) {
        throw new AppError("INVALID_STATE", "The mission is already on the board with these settings: nothing to publish");
      }
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send(
        "publishToBoard",
        [g.onChainId, BigInt(mission.onChainId), user.evmAddress as Address, body.minGuildXP, body.featured, body.notes],
        t,
      );
      const entry = (await repo.board(g.onChainId)).find((b) => b.missionId === mission.id);
      return {
        success: true,
        transactionHash: tx.hash,
        entry: entry
          ? { id: entry.id, missionId: entry.missionId, curatorId: entry.curatorId ?? entry.curator, mission, minGuildXP: entry.minGuildXP, notes: entry.notes, featured: entry.featured, createdAt: iso(entry.createdAt) }
          : null,
      };
    },
  };
}
export type GuildsDeps = Parameters<typeof guildsService>[0];
export type GuildsService = ReturnType<typeof guildsService>;
