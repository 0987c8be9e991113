// `npm run abis`: abis/generated.ts from the Foundry build (run `forge build` first) and the EAS
// npm artifacts. The output is committed; test/unit/abis.test.ts fails when it is stale.
import { readFileSync } from "node:fs";
import { defineConfig } from "@wagmi/cli";
import { foundry } from "@wagmi/cli/plugins";
import type { Abi } from "viem";
import { FOUNDRY_ARTIFACTS } from "../domain/contracts.ts";

const easArtifact = (name: string): Abi =>
  JSON.parse(
    readFileSync(
      `node_modules/@ethereum-attestation-service/eas-contracts/artifacts/contracts/${name}.sol/${name}.json`,
      "utf8",
    ),
  ).abi;

/**
 * The marketplace's own contracts, the RelayerExecutor (recorded as the deployment's `executor`, not a
 * `contracts` entry), plus Errors (every custom error, for decoding reverts).
 */
export const FOUNDRY_CONTRACTS = [...Object.values(FOUNDRY_ARTIFACTS), "RelayerExecutor", "Errors"] as const;

export default defineConfig({
  out: "abis/generated.ts",
  contracts: [
    { name: "SchemaRegistry", abi: easArtifact("SchemaRegistry") },
    { name: "EAS", abi: easArtifact("EAS") },
  ],
  plugins: [
    {
      name: "Header",
      run: async () => ({
        imports: "// GENERATED FILE: do not edit. `npm run abis` (script/wagmi.config.ts) writes it from the Foundry build\n// and the EAS npm artifacts.",
        content: "",
      }),
    },
    foundry({
      project: ".",
      artifacts: "out",
      include: FOUNDRY_CONTRACTS.map((name) => `${name}.sol/${name}.json`),
      // OpenZeppelin 5 has its own `Errors` library (utils/Errors.sol); only ours is the marketplace's.
      exclude: ["utils/Errors.sol/**"],
      forge: { build: false },
    }),
  ],
});
