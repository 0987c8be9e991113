// Creates the spec's notifications from journal entries, exactly once per (journal id, address, type).
// A deleted vault stays deleted: entries that predate an address's vault deletion (by block, or by time
// when the chain head was unknown at the deletion) never notify it again, so a cursor reset, a replay or a
// re-index into a fresh schema cannot bring its notifications back (docs/decisions.md "Vault delete").
import { draftsFor, NOTIFYING_JOURNAL_TYPES } from "../services/notification-rules.ts";
import type { NotificationsService } from "../services/notifications.service.ts";
import { eventKey } from "../repositories/journal.repository.ts";
import type { VaultRepository } from "../repositories/vault.repository.ts";
import type { Reactor } from "./types.ts";

export function notificationsReactor(ports: {
  vault: Pick<VaultRepository, "deletedSince">;
  notifications: Pick<NotificationsService, "create">;
}): Reactor {
  return {
    name: "notifications",
    types: NOTIFYING_JOURNAL_TYPES,
    async handle(entry) {
      let drafts = draftsFor(entry);
      if (drafts.length === 0) return;
      const deleted = await ports.vault.deletedSince(
        [...new Set(drafts.map((d) => d.address))], entry.blockNumber, new Date(Number(entry.blockTimestamp) * 1000),
      );
      if (deleted.size > 0) drafts = drafts.filter((d) => !deleted.has(d.address));
      if (drafts.length === 0) return;
      // Keyed by the event, not the journal id (a position): a reorg that moves the transaction to
      // another block hands it over again under a new id, and a new event may take the old id.
      // createdAt = the block's time: a backlog processed late still reads in chain order.
      await ports.notifications.create(eventKey(entry), entry.id, drafts, new Date(Number(entry.blockTimestamp) * 1000));
    },
  };
}
