// The visibility settings of the users a response shows, and whether the viewer shares an active
// guild with each: one statement per response, whatever the number of users shown (a named
// statement: most responses that show people run it).
import { and, eq, sql } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { ChainTables } from "../db/chain.ts";
import type { Db } from "../db/client.ts";
import { users, vaults } from "../db/schema.ts";
import { chainRead } from "./chain-query.ts";
import { preparedName } from "./prepared-name.ts";

export type PrivacyRow = Awaited<ReturnType<PrivacyRepository["settings"]>>[number];

/**
 * Whether the viewer (the statement's `viewer` placeholder) shares an active guild with `account`,
 * looked up only when `permissions` has a `guilds_only` field: the one SQL form of the rule, for every
 * statement that reads privacy settings (here, and missions.repository.ts findForViewer). `tag` keeps
 * the aliases apart when one statement asks it twice.
 */
export function sharesGuildSql(db: Db, guildMembers: ChainTables["guildMembers"], account: AnyPgColumn, permissions: AnyPgColumn, tag = "") {
  const mine = alias(guildMembers, `mine${tag}`);
  const theirs = alias(guildMembers, `theirs${tag}`);
  const viewer = sql.placeholder("viewer");
  const shared = db.select({ one: sql`1` }).from(mine)
    .innerJoin(theirs, and(eq(theirs.guildOnChainId, mine.guildOnChainId), eq(theirs.active, true)))
    .where(and(sql`${mine.account} = ${viewer}`, eq(mine.active, true), eq(theirs.account, account)));
  return sql<boolean>`(${viewer}::text IS NOT NULL AND ${permissions}::text LIKE '%guilds_only%' AND EXISTS (${shared}))`;
}

export function privacyRepository(db: Db, chain: Pick<ChainTables, "guildMembers">, chainSchema: string) {
  const settingsQ = db
    .select({
      address: users.evmAddress,
      permissions: vaults.permissions,
      sharesGuild: sharesGuildSql(db, chain.guildMembers, users.evmAddress, vaults.permissions),
    })
    .from(users).leftJoin(vaults, eq(vaults.userId, users.id))
    .where(sql`${users.evmAddress} = ANY(${sql.placeholder("addresses")}::text[])`)
    .prepare(preparedName("privacy_settings", chainSchema));
  return {
    /**
     * Only users with an API account can have settings; others are absent (the defaults apply). The
     * guild lookup runs only for a user with some `guilds_only` field, so an all-public page costs
     * one index scan on api.users and one on api.vaults.
     */
    async settings(addresses: string[], viewer: string | null) {
      if (addresses.length === 0) return [];
      return chainRead(settingsQ.execute({ addresses, viewer }));
    },
  };
}
export type PrivacyRepository = ReturnType<typeof privacyRepository>;
