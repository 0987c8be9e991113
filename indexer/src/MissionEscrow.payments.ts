// Payment events of the escrow that change no mission: credits, withdrawals, guild, protocol and labs fees, settings.
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
// Issue 40: settlements accrue the protocol and labs fees (their amounts are in each settlement's event);
// this is the payout of what accrued. The journal entry is filed under the protocol treasury.
ponder.on("MissionEscrow:FeesWithdrawn", async ({ event, context }) => {
  await openJournal(context, event).emit("FEES_WITHDRAWN", event.args, { account: event.args.protocolTreasury });
});
ponder.on("MissionEscrow:WindowSet", async ({ event, context }) => {
  await openJournal(context, event).emit("ESCROW_WINDOW_SET", event.args);
});
ponder.on("MissionEscrow:TreasurySet", async ({ event, context }) => {
  await openJournal(context, event).emit("ESCROW_TREASURY_SET", event.args);
});
