// Four projects: `unit` (pure logic, fast, parallel), `http` (the app via app.request, no chain or
// database), `e2e` (real anvil + Postgres + deployment from test/e2e/global-setup.ts; `npm test`) and
// `e2e-long` (the e2e files listed in test/e2e/suites.ts; `npm run test:long`, CI). Run from the repo root:
//   vitest run --config test/vitest.config.ts --project unit
// E2E_LANES=n runs n e2e files at a time, each on a stack of its own (test/e2e/lane.ts); `npm run
// test:e2e` uses 2. Without it the files run one at a time on one stack.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import E2eSequencer from "./e2e/sequencer.ts";
import { E2E_LONG, laneCount } from "./e2e/suites.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const lanes = laneCount();

const e2e = {
  root,
  globalSetup: ["test/e2e/global-setup.ts"],
  setupFiles: ["test/e2e/file-setup.ts"],
  pool: "forks" as const,
  testTimeout: 180_000,
  hookTimeout: 300_000,
};

export default defineConfig({
  test: {
    root,
    // The e2e global teardown stops the indexers, anvils and Postgres.
    teardownTimeout: 60_000,
    sequence: { sequencer: E2eSequencer },
    // The forks of a run, for every project in it: never more e2e files at once than lanes. A lane's
    // fork runs all its files (isolate off; test/e2e/file-setup.ts gives each file fresh project modules).
    // All forks from the start: with fewer (minForks 1), files queued for a fork started later never
    // ran and the run ended in "Terminating worker thread" (tinypool, 3 lanes).
    ...(lanes > 1 ? { poolOptions: { forks: { maxForks: lanes, minForks: lanes, isolate: false } } } : {}),
    projects: [
      {
        test: {
          name: "unit",
          root,
          include: ["test/unit/**/*.test.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The HTTP layer through app.request(): no chain, no database (test/http/http-app.ts); served-headers
          // also serves the same app on a loopback port to compare.
          name: "http",
          root,
          include: ["test/http/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          ...e2e,
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          exclude: [...E2E_LONG],
          // One file per lane at a time: a lane's files share its chain and database.
          poolOptions: { forks: { singleFork: lanes === 1 } },
        },
      },
      {
        test: {
          ...e2e,
          name: "e2e-long",
          include: [...E2E_LONG],
          // One file at a time in one process, on one lane.
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
