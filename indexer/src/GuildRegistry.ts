// Guilds, members and roles, and mission boards.
import { ponder } from "ponder:registry";
import { boardEntries, guilds } from "ponder:schema";
import { boardEntryId, guildUuid, missionUuid, ROLE_ADMIN, ROLE_CURATOR, ROLE_OFFICER, roleFlags } from "../../domain/index.ts";
import { readDeployment } from "../lib/deployment.ts";
import { openJournal } from "../store/journal.ts";
import { setMembership } from "../store/guilds.ts";
import { lc } from "../store/types.ts";

const escrow = readDeployment().contracts.MissionEscrow.address;

ponder.on("GuildRegistry:GuildCreated", async ({ event, context }) => {
  const { guildId, admin, name, displayName, description, category, feeBps, treasury } = event.args;
  const id = guildUuid(context.chain.id, event.log.address, guildId);
  await context.db.insert(guilds).values({
    id,
    onChainId: guildId,
    contractAddress: lc(event.log.address),
    name,
    displayName,
    description,
    category,
    feeBps,
    treasury: lc(treasury),
    creator: lc(admin),
    memberCount: 0,
    totalCompleted: 0,
    totalEarned: 0n,
    guildReputation: 0,
    createdAt: event.block.timestamp,
    txHash: event.transaction.hash,
    updatedBlock: event.block.number,
  });
  const j = openJournal(context, event);
  await j.emit("GUILD_CREATED", { ...event.args, id }, { account: admin });
  // The creator is the first member with every role, whether or not the registry also emits MemberJoined.
  await setMembership(context, event, j, guildId, admin, true, ROLE_ADMIN | ROLE_OFFICER | ROLE_CURATOR);
});

ponder.on("GuildRegistry:GuildSettingsUpdated", async ({ event, context }) => {
  const { guildId, feeBps, treasury } = event.args;
  const id = guildUuid(context.chain.id, event.log.address, guildId);
  await context.db.update(guilds, { id }).set({ feeBps, treasury: lc(treasury), updatedBlock: event.block.number });
  await openJournal(context, event).emit("GUILD_SETTINGS_UPDATED", { ...event.args, id });
});

ponder.on("GuildRegistry:MemberJoined", async ({ event, context }) => {
  await setMembership(context, event, openJournal(context, event), event.args.guildId, event.args.member, true);
});

ponder.on("GuildRegistry:MemberLeft", async ({ event, context }) => {
  await setMembership(context, event, openJournal(context, event), event.args.guildId, event.args.member, false);
});

ponder.on("GuildRegistry:RolesChanged", async ({ event, context }) => {
  const { guildId, member, roles } = event.args;
  await setMembership(context, event, null, guildId, member, null, roles);
  await openJournal(context, event).emit("ROLES_CHANGED", { ...event.args, ...roleFlags(roles) }, { account: member });
});

ponder.on("GuildRegistry:BoardEntryPublished", async ({ event, context }) => {
  const { guildId, missionId, curator, minGuildXP, featured, notes } = event.args;
  const t = event.block.timestamp;
  const row = {
    curator: lc(curator),
    minGuildXP,
    featured,
    notes,
    active: true,
    updatedAt: t,
    removedAt: null,
    removedBy: null,
    txHash: event.transaction.hash,
  };
  const mission = missionUuid(context.chain.id, escrow, missionId);
  await context.db
    .insert(boardEntries)
    .values({
      id: boardEntryId(guildId, missionId),
      guildOnChainId: guildId,
      guildUuid: guildUuid(context.chain.id, event.log.address, guildId),
      missionOnChainId: missionId,
      missionId: mission,
      createdAt: t,
      ...row,
    })
    .onConflictDoUpdate((old) => ({ ...row, createdAt: old.active ? old.createdAt : t }));
  await openJournal(context, event).emit(
    "BOARD_PUBLISHED",
    { ...event.args, missionUuid: mission },
    { missionId: mission, account: curator },
  );
});

ponder.on("GuildRegistry:BoardEntryRemoved", async ({ event, context }) => {
  const { guildId, missionId, by } = event.args;
  await context.db
    .update(boardEntries, { id: boardEntryId(guildId, missionId) })
    .set({ active: false, removedAt: event.block.timestamp, removedBy: lc(by) });
  await openJournal(context, event).emit("BOARD_REMOVED", event.args, {
    missionId: missionUuid(context.chain.id, escrow, missionId),
    account: by,
  });
});

ponder.on("GuildRegistry:EscrowSet", async ({ event, context }) => {
  await openJournal(context, event).emit("GUILD_ESCROW_SET", event.args);
});
