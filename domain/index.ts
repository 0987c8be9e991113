// The marketplace's vocabulary, declared once for the indexer, the API and the scripts: states,
// guild roles, contract names and the deployment file, ids, money and the journal's events.
// Pure (no Ponder, no database, no file system), so any layer and any unit test may import it.
export * from "./states.ts";
export * from "./roles.ts";
export * from "./contracts.ts";
export * from "./ids.ts";
export * from "./money.ts";
export * from "./journal-events.ts";
export * from "./stablecoin.ts";
export * from "./unlocks.ts";
export * from "./eligibility.ts";
export * from "./settlement.ts";
