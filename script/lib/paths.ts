import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (two levels above this file), whatever directory a command runs in. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Local, gitignored state of `npm start` (Postgres data, anvil state); `DATA_DIR` moves it. */
export const dataDir = process.env.DATA_DIR ? path.resolve(process.env.DATA_DIR) : path.join(repoRoot, ".data");

export const defaultDeploymentFile = (chainId: number | bigint): string =>
  path.join(repoRoot, "deployments", `${chainId}.json`);
