// Entry point: `tsx api/server.ts`. Validates the environment, migrates, serves; stops on SIGINT/SIGTERM.
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { startApi } from "./app.ts";
import { EnvError, loadEnv } from "./env.ts";

export { createServer, startApi } from "./app.ts";

/**
 * The old generation may double between full collections (V8's default lets it grow as little as 10 %
 * past what survived the last one). The API's live heap is large and stable (~60 MB at 1M missions,
 * besides the feed index's ~380 MB of array buffers, which are not marked) and it promotes ~0.4 MB a
 * second under the bench's map load (15 req/s): with the default that is a full collection every ~20 s,
 * each ~70 ms of marking on the core that serves the requests. Read by V8 at each collection, so
 * setting it at start applies (docs/decisions.md "Full collections under load").
 */
export const HEAP_GROWING_PERCENT = 100;

async function main() {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let env;
  try {
    env = loadEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const server = await startApi({ env });
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err) => {
    process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
