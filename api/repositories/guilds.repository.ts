// Guilds, members and board entries from the indexer's views (read only), the API's own guild
// settings (api.guild_settings), and the level and reputation the guild gates read. Only DB code.
import type pg from "pg";

export interface GuildRow {
  id: string; on_chain_id: number; contract_address: string; name: string; display_name: string; description: string;
  category: string; member_count: number; total_completed: number; total_earned: string; guild_reputation: number;
  fee_bps: number; treasury: string; creator: string; created_at: string;
}
export interface MemberRow {
  id: string; account: string; is_curator: boolean; is_officer: boolean; is_admin: boolean; guild_xp: number;
  joined_at: string; active: boolean; user_id: string | null; display_name: string | null;
}
export interface BoardRow {
  id: string; mission_id: string; curator: string; curator_id: string | null; min_guild_xp: number; notes: string;
  featured: boolean; created_at: string;
}

export function guildsRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema.replace(/"/g, '""')}"`;
  const guildCols = `id, on_chain_id, contract_address, name, display_name, description, category, member_count,
    total_completed, total_earned::text, guild_reputation, fee_bps, treasury, creator, created_at::text`;
  const memberSelect = `SELECT m.id, m.account, m.is_curator, m.is_officer, m.is_admin, m.guild_xp, m.joined_at::text, m.active,
      u.id AS user_id, u.display_name
    FROM ${s}.guild_members m LEFT JOIN api.users u ON u.evm_address = m.account`;
  return {
    async list(f: { skip: number; take: number; category?: string }): Promise<GuildRow[]> {
      const params: unknown[] = [f.skip, f.take];
      let where = "";
      if (f.category) {
        params.push(f.category);
        where = "WHERE lower(category) = lower($3)";
      }
      const { rows } = await pool.query(`SELECT ${guildCols} FROM ${s}.guilds ${where} ORDER BY on_chain_id OFFSET $1 LIMIT $2`, params);
      return rows;
    },
    /** By the indexer's UUID or the registry's numeric id. */
    async find(idOrOnChainId: string): Promise<GuildRow | null> {
      const byNumber = /^\d{1,10}$/.test(idOrOnChainId);
      const { rows } = await pool.query(
        `SELECT ${guildCols} FROM ${s}.guilds WHERE ${byNumber ? "on_chain_id = $1::int" : "id = $1"}`,
        [idOrOnChainId],
      );
      return rows[0] ?? null;
    },
    async members(guildOnChainId: number): Promise<MemberRow[]> {
      const { rows } = await pool.query(`${memberSelect} WHERE m.guild_on_chain_id = $1 AND m.active ORDER BY m.joined_at, m.account`, [guildOnChainId]);
      return rows;
    },
    async member(guildOnChainId: number, account: string): Promise<MemberRow | null> {
      const { rows } = await pool.query(`${memberSelect} WHERE m.guild_on_chain_id = $1 AND m.account = $2`, [guildOnChainId, account.toLowerCase()]);
      return rows[0] ?? null;
    },
    /** `who`: an API user id or an address. */
    async memberByUser(guildOnChainId: number, who: string): Promise<MemberRow | null> {
      const { rows } = await pool.query(`${memberSelect} WHERE m.guild_on_chain_id = $1 AND (m.account = lower($2) OR u.id::text = lower($2))`, [guildOnChainId, who]);
      return rows[0] ?? null;
    },
    async board(guildOnChainId: number): Promise<BoardRow[]> {
      const { rows } = await pool.query(
        `SELECT b.id, b.mission_id, b.curator, u.id AS curator_id, b.min_guild_xp, b.notes, b.featured, b.created_at::text
           FROM ${s}.board_entries b LEFT JOIN api.users u ON u.evm_address = b.curator
          WHERE b.guild_on_chain_id = $1 AND b.active ORDER BY b.featured DESC, b.created_at DESC, b.id`,
        [guildOnChainId],
      );
      return rows;
    },
    /** The indexed level and reputation of `account` (level 1, reputation 0 before any XP or rating). */
    async standing(account: string): Promise<{ level: number; reputation: number }> {
      const { rows } = await pool.query(`SELECT level, reputation FROM ${s}.user_stats WHERE address = $1`, [account.toLowerCase()]);
      return { level: rows[0]?.level ?? 1, reputation: rows[0]?.reputation ?? 0 };
    },
    async minReputation(guildUuid: string): Promise<number | null> {
      const { rows } = await pool.query(`SELECT min_reputation FROM api.guild_settings WHERE guild_id = $1`, [guildUuid]);
      return rows[0]?.min_reputation ?? null;
    },
    /** Written once, when the API creates the guild. */
    async setMinReputation(guildUuid: string, minReputation: number): Promise<void> {
      await pool.query(
        `INSERT INTO api.guild_settings (guild_id, min_reputation) VALUES ($1, $2) ON CONFLICT (guild_id) DO NOTHING`,
        [guildUuid, minReputation],
      );
    },
    async findByName(name: string): Promise<GuildRow | null> {
      const { rows } = await pool.query(`SELECT ${guildCols} FROM ${s}.guilds WHERE name = $1`, [name]);
      return rows[0] ?? null;
    },
    async guildsOf(account: string): Promise<(MemberRow & { guild_uuid: string; guild_name: string })[]> {
      const { rows } = await pool.query(
        `SELECT m.id, m.account, m.is_curator, m.is_officer, m.is_admin, m.guild_xp, m.joined_at::text, m.active,
                m.guild_uuid, g.name AS guild_name
           FROM ${s}.guild_members m JOIN ${s}.guilds g ON g.id = m.guild_uuid
          WHERE m.account = $1 AND m.active ORDER BY m.joined_at`,
        [account.toLowerCase()],
      );
      return rows;
    },
  };
}
export type GuildsRepository = ReturnType<typeof guildsRepository>;
