// Webhooks from the journal: each entry becomes one outbox row per subscribed endpoint, keyed by
// (endpoint, journal id), so the runner's replays after a restart or an indexer rewind add nothing.
// Sending is the dispatcher's job (api/services/webhooks/dispatcher.ts), outside the runner's loop.
import { WEBHOOK_JOURNAL_TYPES, webhookDraftFor } from "../services/webhooks/events.ts";
import { confirmationsFor } from "./finality.ts";
import type { Reactor } from "./types.ts";

export const webhooksReactor: Reactor = {
  name: "webhooks",
  types: WEBHOOK_JOURNAL_TYPES,
  // A sent webhook cannot be taken back, and its outbox is keyed by journal id (a position).
  confirmations: confirmationsFor,
  async handle(entry, ctx) {
    const draft = webhookDraftFor(entry);
    if (!draft || draft.recipients.length === 0) return;
    await ctx.deps.services.webhooks.enqueue(entry, draft);
  },
};
