// The e2e files run E2E_LANES at a time (the `test:e2e` script: 2), each file on the stack of its lane:
// an anvil with the deployment, a database of the shared PostgreSQL and an indexer, all started by
// global-setup.ts. Files of one lane run one after another, as all files once did on one stack, so a
// file still owns its chain while it runs (time travel, restarts and reorgs disturb no other file).
// Read the stack with this `inject`, never vitest's: that one would not know the file's lane.
import { inject as injectProvided } from "vitest";
import type { Deployment } from "../../script/lib/deploy.ts";

export interface Lane {
  databaseUrl: string;
  rpcUrl: string;
  wsUrl: string;
  deploymentFile: string;
  deployment: Deployment;
  /** The block right after the deployment: read the set-up there, later files change the chain. */
  deployedBlock: number;
  /** An indexer started with the stack, for files that only read through it (startTestApi's "shared"). */
  sharedIndexer: { url: string; viewsSchema: string };
}

declare module "vitest" {
  export interface ProvidedContext {
    lanes: Lane[];
  }
}

/**
 * This file's lane: the worker's pool id (1..maxForks; two files running at once never share one),
 * which the config keeps at most the number of lanes.
 */
export function laneIndex(): number {
  const lanes = injectProvided("lanes");
  const id = Number(process.env.VITEST_POOL_ID ?? 1);
  if (!(id >= 1 && id <= lanes.length)) throw new Error(`worker ${id} has no lane (${lanes.length} started): run the e2e files with as many forks as E2E_LANES`);
  return id - 1;
}

/** A value of this file's stack. */
export function inject<K extends keyof Lane>(key: K): Lane[K] {
  return injectProvided("lanes")[laneIndex()]![key];
}
