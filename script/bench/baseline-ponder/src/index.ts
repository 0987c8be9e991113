// The one handler: insert a row per event. The schema is imported by path (not "ponder:schema") so
// this file also type-checks inside the repo's program, where "ponder:schema" is the real indexer's.
import { ponder } from "ponder:registry";
import { escrowEvents } from "../ponder.schema.ts";

for (const name of ["MissionCreated", "MissionAccepted", "MissionSubmitted", "MissionCompleted"] as const) {
  ponder.on(`MissionEscrow:${name}`, async ({ event, context }) => {
    await context.db.insert(escrowEvents).values({
      id: `${event.block.number}:${event.log.logIndex}`,
      name,
      missionId: event.args.missionId,
      blockNumber: event.block.number,
      txHash: event.transaction.hash,
    });
  });
}
