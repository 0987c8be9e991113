// Operator approvals (the relayer acting for a user).
import { ponder } from "ponder:registry";
import { operatorApprovals } from "ponder:schema";
import { operatorApprovalId } from "../../domain/index.ts";
import { openJournal } from "../store/journal.ts";
import { lc } from "../store/types.ts";

ponder.on("OperatorRegistry:OperatorSet", async ({ event, context }) => {
  const { user, operator, approved } = event.args;
  const row = { approved, updatedAt: event.block.timestamp, txHash: event.transaction.hash };
  await context.db
    .insert(operatorApprovals)
    .values({ id: operatorApprovalId(user, operator), user: lc(user), operator: lc(operator), ...row })
    .onConflictDoUpdate(row);
  await openJournal(context, event).emit("OPERATOR_SET", event.args, { account: user });
});
