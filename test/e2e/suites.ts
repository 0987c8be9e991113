// Which e2e files run in `npm test` (project `e2e`, the fast suite) and which only in `npm run test:long`
// (project `e2e-long`, which CI runs after `npm test`). Every test/e2e file is in exactly one of the two
// (test/unit/e2e-suites.test.ts checks it against what vitest itself lists).
//
// The long suite holds the files that bring up stacks of their own or wait on the clock by design, and
// every file that runs `forge script` (two at once would share forge's cache and broadcast folders): it
// runs one file at a time.
export const E2E_LONG = [
  "test/e2e/supervisor.test.ts", // the real `npm start` on a fresh data directory (deploys with forge), waits out a 60-s expiry
  "test/e2e/rehearse.test.ts", // a Base Sepolia stand-in with 2-s blocks, a forge deploy and the supervisor
  "test/e2e/faults.test.ts", // its own PostgreSQL, restarted under the API; an RPC cut
  "test/e2e/reorg.test.ts", // reorganises the chain under a running stack and waits for finality
  "test/e2e/deploy.test.ts", // re-runs the forge deploy against the stack's chain
  "test/e2e/known-chain.test.ts", // an anvil as Base Sepolia and forge deploys onto it
  // 20 concurrent creates must reach the relayer within a few of its 200-ms holds: with another file
  // beside it on 2 cores the API's ~40 ms of CPU a create spread them over 2.4 s (12 blocks; alone 6-7)
  "test/e2e/relayer-grouping.test.ts",
] as const;

/**
 * How many e2e files run at once, each on a stack of its own (test/e2e/lane.ts): E2E_LANES, default 1.
 * `npm run test:e2e` sets 2.
 */
export function laneCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.E2E_LANES ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`E2E_LANES must be an integer 1..8, got ${env.E2E_LANES}`);
  return n;
}
