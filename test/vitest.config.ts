// Three projects: `unit` (pure logic, fast, parallel), `http` (the app via app.request, no
// chain or database) and `e2e` (real anvil + Postgres + deployment
// from test/e2e/global-setup.ts, files one at a time). Run from the repo root:
//   vitest run --config test/vitest.config.ts --project unit
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  test: {
    root,
    // The e2e global teardown stops the indexer, anvil and Postgres.
    teardownTimeout: 60_000,
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
          // The HTTP layer through app.request(): no chain, no database, no server (test/http/http-app.ts).
          name: "http",
          root,
          include: ["test/http/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          root,
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          // One file at a time in one process: the files share one chain and one database.
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
