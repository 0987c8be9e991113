// drizzle-kit sees every table of the API's own schema "api" (never Ponder's `chain` tables).
// New migration: edit a `*.schema.ts` file, run `npm run db:generate -- --name <what>`, review and commit
// the SQL and the snapshot in api/db/migrations.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./api/db/schema.ts", "./api/db/*.schema.ts"],
  out: "./api/db/migrations",
  schemaFilter: ["api"],
});
