// The drizzle schema files and the committed migrations agree: `npm run db:generate` on a copy of the
// migrations folder finds nothing to generate. It fails when a `*.schema.ts` changed without a migration.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("drizzle migrations", () => {
  it("match every api/db/*.schema.ts (no drift)", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "db-drift-"));
    try {
      fs.cpSync(path.join(root, "api/db/migrations"), path.join(tmp, "migrations"), { recursive: true });
      const config = path.join(tmp, "drizzle.config.mjs");
      // drizzle-kit resolves `out` from the working directory.
      fs.writeFileSync(config, `export default ${JSON.stringify({
        dialect: "postgresql",
        schema: ["./api/db/schema.ts", "./api/db/*.schema.ts"],
        out: path.relative(root, path.join(tmp, "migrations")),
        schemaFilter: ["api"],
      })};\n`);
      const before = fs.readdirSync(path.join(tmp, "migrations")).sort();
      const { stdout } = await promisify(execFile)(path.join(root, "node_modules/.bin/drizzle-kit"), ["generate", "--config", config], { cwd: root });
      expect(fs.readdirSync(path.join(tmp, "migrations")).sort(), "drift: run `npm run db:generate`").toEqual(before);
      expect(stdout).toMatch(/No schema changes/);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
