// Reads the deployment file the deploy script writes (DEPLOYMENT_FILE, default
// deployments/<CHAIN_ID or 31337>.json from the repo root). Used by ponder.config.ts and handlers.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { normalizeDeployment, type Deployment } from "../../domain/contracts.ts";

export function deploymentPath(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): string {
  const file = env.DEPLOYMENT_FILE ?? `deployments/${env.CHAIN_ID ?? "31337"}.json`;
  return isAbsolute(file) ? file : resolve(root, file);
}

export function readDeployment(file = deploymentPath()): Deployment {
  let json: Deployment;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`Cannot read the deployment file ${file} (set DEPLOYMENT_FILE): ${(e as Error).message}`);
  }
  for (const name of ["MissionEscrow", "GuildRegistry", "AchievementNFT", "ReputationRegistry", "EAS"] as const) {
    if (!json.contracts?.[name]?.address) throw new Error(`Deployment file ${file} lacks contracts.${name}`);
  }
  return normalizeDeployment(json);
}
