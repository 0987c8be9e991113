// Payment events of the escrow that change no mission: credits, withdrawals, guild fees, settings.
import { ponder } from "ponder:registry";
import { openJournal } from "../store/journal.ts";

ponder.on("MissionEscrow:Credited", async ({ event, context }) => {
  await openJournal(context, event).emit("CREDITED", event.args, { account: event.args.account });
});
ponder.on("MissionEscrow:Withdrawn", async ({ event, context }) => {
  await openJournal(context, event).emit("WITHDRAWN", event.args, { account: event.args.account });
});
ponder.on("MissionEscrow:GuildFeesWithdrawn", async ({ event, context }) => {
  await openJournal(context, event).emit("GUILD_FEES_WITHDRAWN", event.args, { account: event.args.treasury });
});
ponder.on("MissionEscrow:WindowSet", async ({ event, context }) => {
  await openJournal(context, event).emit("ESCROW_WINDOW_SET", event.args);
});
ponder.on("MissionEscrow:TreasurySet", async ({ event, context }) => {
  await openJournal(context, event).emit("ESCROW_TREASURY_SET", event.args);
});
