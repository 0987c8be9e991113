// Entry point: `tsx api/server.ts`. Validates the environment, migrates, serves; stops on SIGINT/SIGTERM.
import { pathToFileURL } from "node:url";
import { startApi } from "./app.ts";
import { EnvError, loadEnv } from "./env.ts";

export { createServer, startApi } from "./app.ts";

async function main() {
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
