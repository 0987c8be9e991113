// abis/generated.ts is committed: it must match the Foundry build (`npm run abis` regenerates it).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as abis from "../../abis/index.ts";
import { FOUNDRY_CONTRACTS } from "../../script/wagmi.config.ts";
import { repoRoot } from "../../script/lib/paths.ts";

const exportName = (contract: string) => `${contract.replace(/NFT$/, "Nft").replace(/^./, (c) => c.toLowerCase())}Abi`;
const artifact = (contract: string) => path.join(repoRoot, "out", `${contract}.sol`, `${contract}.json`);
const built = FOUNDRY_CONTRACTS.every((name) => fs.existsSync(artifact(name)));

describe("abis/generated.ts", () => {
  it.skipIf(!built).each(FOUNDRY_CONTRACTS)("%s matches the Foundry build (else run `npm run abis`)", (contract) => {
    const fromBuild = JSON.parse(fs.readFileSync(artifact(contract), "utf8")).abi;
    expect((abis as Record<string, unknown>)[exportName(contract)]).toEqual(fromBuild);
  });

  it.each(["EAS", "SchemaRegistry"])("%s matches the EAS npm artifact", (contract) => {
    const file = path.join(
      repoRoot,
      `node_modules/@ethereum-attestation-service/eas-contracts/artifacts/contracts/${contract}.sol/${contract}.json`,
    );
    const name = contract === "EAS" ? "easAbi" : "schemaRegistryAbi";
    expect((abis as Record<string, unknown>)[name]).toEqual(JSON.parse(fs.readFileSync(file, "utf8")).abi);
  });
});
