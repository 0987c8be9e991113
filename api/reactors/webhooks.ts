// Webhooks from the journal: each entry becomes one outbox row per subscribed endpoint, keyed by
// (endpoint, journal id), so the runner's replays after a restart or an indexer rewind add nothing.
// Sending is the dispatcher's job (api/services/webhooks/dispatcher.ts), outside the runner's loop.
import { WEBHOOK_JOURNAL_TYPES, webhookDraftFor } from "../services/webhooks/events.ts";
import type { WebhooksService } from "../services/webhooks/webhooks.service.ts";
import type { Reactor } from "./types.ts";

export function webhooksReactor(ports: {
  webhooks: Pick<WebhooksService, "enqueue">;
  /** A sent webhook cannot be taken back, and its outbox is keyed by journal id (a position): confirmationsFor. */
  confirmations: number;
}): Reactor {
  return {
    name: "webhooks",
    types: WEBHOOK_JOURNAL_TYPES,
    confirmations: ports.confirmations,
    async handle(entry) {
      const draft = webhookDraftFor(entry);
      if (!draft || draft.recipients.length === 0) return;
      await ports.webhooks.enqueue(entry, draft);
    },
  };
}
