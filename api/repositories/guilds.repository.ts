// Guilds, members and board entries from the indexer's views (read only, through the typed Ponder
// tables: rows are the schema's, bigint columns as bigint), the API's own guild settings
// (api.guild_settings), and the level and reputation the guild gates read. Only DB code.
import { and, asc, desc, eq, getTableColumns, or, sql } from "drizzle-orm";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { guildSettings } from "../db/community.schema.ts";
import { users } from "../db/schema.ts";
import { chainRead } from "./chain-query.ts";
import { preparedName } from "./prepared-name.ts";

export type GuildRow = ChainTables["guilds"]["$inferSelect"];
export type MemberRow = Awaited<ReturnType<GuildsRepository["members"]>>[number];
export type BoardRow = Awaited<ReturnType<GuildsRepository["board"]>>[number];

const INT4_MAX = 2 ** 31 - 1;

export function guildsRepository(db: Db, chain: Pick<ChainTables, "guilds" | "guildMembers" | "boardEntries" | "userStats">, chainSchema: string) {
  const { guilds: g, guildMembers: gm, boardEntries: b, userStats: st } = chain;
  const memberCols = { ...getTableColumns(gm), userId: users.id, displayName: users.displayName };
  const members = () => db.select(memberCols).from(gm).leftJoin(users, eq(users.evmAddress, gm.account));
  // Hot paths: every guild action checks the caller's membership, and the gates read the standing.
  const memberQ = members()
    .where(and(eq(gm.guildOnChainId, sql.placeholder("guild")), eq(gm.account, sql.placeholder("account"))))
    .prepare(preparedName("guild_member", chainSchema));
  const standingQ = db.select({ level: st.level, reputation: st.reputation }).from(st)
    .where(eq(st.address, sql.placeholder("address"))).prepare(preparedName("guild_standing", chainSchema));
  return {
    async list(f: { skip: number; take: number; category?: string }): Promise<GuildRow[]> {
      return chainRead(
        db.select().from(g).where(f.category ? sql`lower(${g.category}) = lower(${f.category})` : undefined)
          .orderBy(asc(g.onChainId)).offset(f.skip).limit(f.take),
      );
    },
    /** By the indexer's UUID or the registry's numeric id. */
    async find(idOrOnChainId: string): Promise<GuildRow | null> {
      const byNumber = /^\d{1,10}$/.test(idOrOnChainId);
      if (byNumber && Number(idOrOnChainId) > INT4_MAX) return null; // no such registry id (int4 column)
      const [row] = await chainRead(db.select().from(g).where(byNumber ? eq(g.onChainId, Number(idOrOnChainId)) : eq(g.id, idOrOnChainId)));
      return row ?? null;
    },
    async members(guildOnChainId: number) {
      return chainRead(members().where(and(eq(gm.guildOnChainId, guildOnChainId), eq(gm.active, true))).orderBy(asc(gm.joinedAt), asc(gm.account)));
    },
    async member(guildOnChainId: number, account: string) {
      const [row] = await chainRead(memberQ.execute({ guild: guildOnChainId, account: account.toLowerCase() }));
      return row ?? null;
    },
    /** `who`: an API user id or an address. */
    async memberByUser(guildOnChainId: number, who: string) {
      const [row] = await chainRead(
        members().where(and(eq(gm.guildOnChainId, guildOnChainId), or(sql`${gm.account} = lower(${who})`, sql`${users.id}::text = lower(${who})`))),
      );
      return row ?? null;
    },
    async board(guildOnChainId: number) {
      return chainRead(
        db.select({ ...getTableColumns(b), curatorId: users.id }).from(b).leftJoin(users, eq(users.evmAddress, b.curator))
          .where(and(eq(b.guildOnChainId, guildOnChainId), eq(b.active, true)))
          .orderBy(desc(b.featured), desc(b.createdAt), asc(b.id)),
      );
    },
    /** The indexed level and reputation of `account` (level 1, reputation 0 before any XP or rating). */
    async standing(account: string): Promise<{ level: number; reputation: number }> {
      const [row] = await chainRead(standingQ.execute({ address: account.toLowerCase() }));
      return { level: row?.level ?? 1, reputation: row?.reputation ?? 0 };
    },
    async minReputation(guildUuid: string): Promise<number | null> {
      const [row] = await db.select({ minReputation: guildSettings.minReputation }).from(guildSettings).where(eq(guildSettings.guildId, guildUuid));
      return row?.minReputation ?? null;
    },
    /** Written once, when the API creates the guild. */
    async setMinReputation(guildUuid: string, minReputation: number): Promise<void> {
      await db.insert(guildSettings).values({ guildId: guildUuid, minReputation }).onConflictDoNothing({ target: guildSettings.guildId });
    },
    async findByName(name: string): Promise<GuildRow | null> {
      const [row] = await chainRead(db.select().from(g).where(eq(g.name, name)));
      return row ?? null;
    },
    async guildsOf(account: string) {
      return chainRead(
        db.select({ ...getTableColumns(gm), guildName: g.name }).from(gm).innerJoin(g, eq(g.id, gm.guildUuid))
          .where(and(eq(gm.account, account.toLowerCase() as `0x${string}`), eq(gm.active, true))).orderBy(asc(gm.joinedAt)),
      );
    },
  };
}
export type GuildsRepository = ReturnType<typeof guildsRepository>;
