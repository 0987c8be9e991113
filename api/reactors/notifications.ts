// Creates the spec's notifications from journal entries, exactly once per (journal id, address, type).
// A deleted vault stays deleted: entries that predate an address's vault deletion (by block, or by time
// when the chain head was unknown at the deletion) never notify it again, so a cursor reset, a replay or a
// re-index into a fresh schema cannot bring its notifications back (docs/decisions.md "Vault delete").
import { community } from "../services/community.ts";
import { draftsFor } from "../services/notification-rules.ts";
import type { Deps } from "../deps.ts";
import type { JournalEntry, Reactor } from "./types.ts";

/** The addresses among `addresses` whose vault was deleted at or after `entry`. */
async function deletedSince(deps: Deps, addresses: string[], entry: JournalEntry): Promise<Set<string>> {
  const { rows } = await deps.database.pool.query<{ address: string }>(
    `SELECT DISTINCT lower(u.evm_address) AS address
       FROM api.vault_deletions d JOIN api.users u ON u.id = d.user_id
      WHERE lower(u.evm_address) = ANY($1::text[])
        AND (d.chain_block >= $2 OR (d.chain_block IS NULL AND d.deleted_at >= $3))`,
    [addresses, entry.blockNumber.toString(), new Date(Number(entry.blockTimestamp) * 1000)],
  );
  return new Set(rows.map((r) => r.address));
}

export const notificationsReactor: Reactor = {
  name: "notifications",
  types: [
    "MISSION_ACCEPTED", "MISSION_SUBMITTED", "MISSION_COMPLETED", "DISPUTE_RAISED", "DISPUTE_RESOLVED",
    "DISPUTE_FINALIZED", "ROLES_CHANGED", "LEVEL_UP", "NFT_MINTED", "RATING_ATTESTED",
  ],
  async handle(entry, ctx) {
    let drafts = draftsFor(entry);
    if (drafts.length === 0) return;
    const deleted = await deletedSince(ctx.deps, [...new Set(drafts.map((d) => d.address))], entry);
    if (deleted.size > 0) drafts = drafts.filter((d) => !deleted.has(d.address));
    if (drafts.length === 0) return;
    // createdAt = the block's time: a backlog processed late still reads in chain order.
    await community(ctx.deps).notifications.create(entry.id.toString(), entry.id, drafts, new Date(Number(entry.blockTimestamp) * 1000));
  },
};
