// The visibility settings of the users a response shows, and whether the viewer shares an active
// guild with each: one statement per response, whatever the number of users shown.
import type pg from "pg";
import { chainQuery } from "./chain-query.ts";

export interface PrivacyRow {
  address: string;
  permissions: unknown;
  shares_guild: boolean;
}

export function privacyRepository(pool: pg.Pool, chainSchema: string) {
  const s = `"${chainSchema.replace(/"/g, '""')}"`;
  return {
    /**
     * Only users with an API account can have settings; others are absent (the defaults apply). The
     * guild lookup runs only for a user with some `guilds_only` field, so an all-public page costs
     * one index scan on api.users and one on api.vaults.
     */
    async settings(addresses: string[], viewer: string | null): Promise<PrivacyRow[]> {
      if (addresses.length === 0) return [];
      const { rows } = await chainQuery<PrivacyRow>(
        pool,
        `SELECT u.evm_address AS address, v.permissions,
                ($2::text IS NOT NULL AND v.permissions::text LIKE '%guilds_only%' AND EXISTS (
                   SELECT 1 FROM ${s}.guild_members mine
                     JOIN ${s}.guild_members theirs ON theirs.guild_on_chain_id = mine.guild_on_chain_id AND theirs.active
                    WHERE mine.account = $2 AND mine.active AND theirs.account = u.evm_address)) AS shares_guild
           FROM api.users u LEFT JOIN api.vaults v ON v.user_id = u.id
          WHERE u.evm_address = ANY($1::text[])`,
        [addresses, viewer],
      );
      return rows;
    },
  };
}
export type PrivacyRepository = ReturnType<typeof privacyRepository>;
