// The discovery area's e2e files with their own forge output dir (see test/e2e/discovery-global-setup.ts).
//   npx vitest run --config test/vitest.discovery.config.ts test/e2e/discovery.test.ts test/e2e/ws.test.ts
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export default defineConfig({
  test: {
    root,
    teardownTimeout: 60_000,
    include: ["test/e2e/discovery*.test.ts", "test/e2e/ws*.test.ts"],
    globalSetup: ["test/e2e/discovery-global-setup.ts"],
    pool: "forks",
    poolOptions: { forks: { singleFork: true } },
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
