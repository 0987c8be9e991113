// The deployment file (written by the deploy script) through the indexer's reader, so both agree.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readDeployment } from "../indexer/lib/deployment.ts";
import type { Deployment } from "../domain/index.ts";

const repoRoot = resolve(fileURLToPath(new URL("..", import.meta.url)));

export function deploymentFile(file: string | undefined, chainId: number | undefined): string {
  const f = file ?? `deployments/${chainId ?? 31337}.json`;
  return isAbsolute(f) ? f : resolve(repoRoot, f);
}

/** The deployment, or null when the file does not exist (yet): chain endpoints then answer 503. */
export function loadDeployment(file: string): Deployment | null {
  if (!existsSync(file)) return null;
  return readDeployment(file);
}
