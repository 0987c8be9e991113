// `npm run discovery:rebuild`: rebuilds the discovery read model (api.discovery_missions) from the
// indexer's views and the API's details, in one transaction. Needs DATABASE_URL (and CHAIN_SCHEMA
// when it is not "chain"); applies pending migrations first so it works on a fresh database.
import { createDatabase } from "../api/db/client.ts";
import { runMigrations } from "../api/db/migrate.ts";
import { discoveryReadModelRepository } from "../api/repositories/discovery-read-model.repository.ts";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is required");
  process.exit(2);
}
const schema = process.env.CHAIN_SCHEMA ?? "chain";
const database = createDatabase(url, 2);
try {
  await runMigrations(database);
  const t0 = performance.now();
  const rows = await discoveryReadModelRepository(database.pool, schema).rebuild();
  console.log(`discovery read model rebuilt: ${rows} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
