// Creates the spec's notifications from journal entries, exactly once per (journal id, address, type).
import { community } from "../services/community.ts";
import { draftsFor } from "../services/notification-rules.ts";
import type { Reactor } from "./types.ts";

export const notificationsReactor: Reactor = {
  name: "notifications",
  types: [
    "MISSION_ACCEPTED", "MISSION_SUBMITTED", "MISSION_COMPLETED", "DISPUTE_RAISED", "DISPUTE_RESOLVED",
    "DISPUTE_FINALIZED", "ROLES_CHANGED", "LEVEL_UP", "NFT_MINTED", "RATING_ATTESTED",
  ],
  async handle(entry, ctx) {
    const drafts = draftsFor(entry);
    if (drafts.length === 0) return;
    // createdAt = the block's time: a backlog processed late still reads in chain order.
    await community(ctx.deps).notifications.create(entry.id.toString(), entry.id, drafts, new Date(Number(entry.blockTimestamp) * 1000));
  },
};
