// Guild reads (indexed chain data) and writes relayed to GuildRegistry (join, leave, publishToBoard).
import type { Address } from "viem";
import { guildRegistryAbi } from "../../abis/index.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { BoardRow, GuildRow, GuildsRepository, MemberRow } from "../repositories/guilds.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { SetupGate } from "./wallet/wallet-setup.service.ts";
import { OPEN_LENS, type PrivacyLens, type PrivacyService } from "./privacy.ts";

const iso = (unixSeconds: string | number) => new Date(Number(unixSeconds) * 1000).toISOString();

export const guildView = (g: GuildRow) => ({
  id: g.id,
  onChainId: String(g.on_chain_id),
  contractAddress: g.contract_address,
  name: g.name,
  displayName: g.display_name,
  description: g.description,
  category: g.category,
  memberCount: g.member_count,
  totalCompleted: g.total_completed,
  totalEarned: g.total_earned,
  guildReputation: g.guild_reputation,
  guildFeeBps: g.fee_bps,
});

/** `lens`: the viewer's (privacy.ts); the caller's own membership is shown with the open lens. */
export const memberView = (m: MemberRow, lens: PrivacyLens = OPEN_LENS) => ({
  id: m.id,
  user: {
    id: m.user_id ?? m.account.toLowerCase(),
    displayName: lens.field(m.account, "displayName", m.display_name ?? ""),
    evmAddress: m.account.toLowerCase(),
  },
  isCurator: m.is_curator,
  isOfficer: m.is_officer,
  isAdmin: m.is_admin,
  guildXP: m.guild_xp,
  joinedAt: iso(m.joined_at),
});

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
  const membership = async (g: GuildRow, address: string) => {
    const m = await repo.member(g.on_chain_id, address);
    return m && m.active ? memberView(m) : null;
  };

  return {
    list: async (q: { skip: number; take: number; category?: string }) => (await repo.list(q)).map(guildView),
    async get(id: string, viewer?: UserRow | null) {
      const g = await mustFind(id);
      return {
        ...guildView(g),
        treasury: g.treasury,
        creator: g.creator,
        createdAt: iso(g.created_at),
        membership: viewer ? await membership(g, viewer.evmAddress) : null,
      };
    },
    async members(id: string, viewer?: string) {
      const g = await mustFind(id);
      const rows = await repo.members(g.on_chain_id);
      const lens = await deps.privacy.lens(viewer, rows.map((m) => m.account));
      return rows.map((m) => memberView(m, lens));
    },
    async board(id: string, viewer?: Address) {
      const g = await mustFind(id);
      const rows = await repo.board(g.on_chain_id);
      return Promise.all(
        rows.map(async (b: BoardRow) => ({
          id: b.id,
          missionId: b.mission_id,
          curatorId: b.curator_id ?? b.curator.toLowerCase(),
          mission: await deps.mission(b.mission_id, viewer),
          minGuildXP: b.min_guild_xp,
          notes: b.notes,
          featured: b.featured,
          createdAt: iso(b.created_at),
        })),
      );
    },
    async join(user: UserRow, id: string) {
      const g = await mustFind(id);
      if (await membership(g, user.evmAddress)) throw new AppError("ALREADY_MEMBER", "You are already a member of this guild");
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send("join", [g.on_chain_id, user.evmAddress as Address], t);
      return { success: true, transactionHash: tx.hash, guild: guildView((await repo.find(g.id)) ?? g), membership: await membership(g, user.evmAddress) };
    },
    async leave(user: UserRow, id: string) {
      const g = await mustFind(id);
      const me = await membership(g, user.evmAddress);
      if (!me) throw new AppError("NOT_MEMBER", "You are not a member of this guild");
      if (me.isAdmin && (await repo.members(g.on_chain_id)).filter((m) => m.is_admin).length <= 1) {
        throw new AppError("INVALID_STATE", "The last admin cannot leave the guild");
      }
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send("leave", [g.on_chain_id, user.evmAddress as Address], t);
      return { success: true, transactionHash: tx.hash, guild: guildView((await repo.find(g.id)) ?? g), membership: await membership(g, user.evmAddress) };
    },
    async publish(user: UserRow, id: string, body: { missionId: string; notes: string; minGuildXP: number; featured: boolean }) {
      const g = await mustFind(id);
      const me = await membership(g, user.evmAddress);
      if (!me?.isCurator) throw new AppError("FORBIDDEN", "Publishing to the board requires the curator role in this guild");
      const mission = await deps.mission(body.missionId, user.evmAddress as Address);
      if (mission.guild?.id !== g.id) {
        throw validationError([{ field: "body.missionId", reason: "the mission does not belong to this guild" }]);
      }
      const listed = (await repo.board(g.on_chain_id)).find((b) => b.mission_id === mission.id);
      if (listed && listed.min_guild_xp === body.minGuildXP && listed.featured === body.featured && listed.notes === body.notes) {
        throw new AppError("INVALID_STATE", "The mission is already on the board with these settings: nothing to publish");
      }
      await deps.setup.require(user.evmAddress as Address);
      const { relayer, t } = target();
      const tx = await relayer.send(
        "publishToBoard",
        [g.on_chain_id, BigInt(mission.onChainId), user.evmAddress as Address, body.minGuildXP, body.featured, body.notes],
        t,
      );
      const entry = (await repo.board(g.on_chain_id)).find((b) => b.mission_id === mission.id);
      return {
        success: true,
        transactionHash: tx.hash,
        entry: entry
          ? { id: entry.id, missionId: entry.mission_id, curatorId: entry.curator_id ?? entry.curator, mission, minGuildXP: entry.min_guild_xp, notes: entry.notes, featured: entry.featured, createdAt: iso(entry.created_at) }
          : null,
      };
    },
  };
}
export type GuildsDeps = Parameters<typeof guildsService>[0];
