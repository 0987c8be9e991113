// Keeps the discovery read model (api.discovery_missions) up to date with the chain: every journal
// entry about a mission re-projects that mission's row; a rating re-reads the ratee's reputation into
// the rows they posted. Idempotent (a projection of current state), so a replay is harmless.
import type { DiscoveryReadModelRepository } from "../repositories/discovery-read-model.repository.ts";
import type { Reactor } from "./types.ts";

export function discoveryReactor(ports: { readModel: Pick<DiscoveryReadModelRepository, "applyEntry"> }): Reactor {
  return {
    name: "discovery-read-model",
    async handle(entry) {
      await ports.readModel.applyEntry(entry);
    },
  };
}
