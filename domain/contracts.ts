// The deployed contracts by name and the deployment file that records them (written by
// script/Deploy.s.sol through script/lib/deploy.ts; read by the indexer, the API and the scripts).
import type { Address, Hex } from "viem";

/** Every contract of a deployment, in the file's order. */
export const CONTRACT_NAMES = [
  "Stablecoin",
  "OperatorRegistry",
  "GuildRegistry",
  "MissionEscrow",
  "AchievementNFT",
  "ReputationRegistry",
  "SchemaRegistry",
  "EAS",
] as const;
export type ContractName = (typeof CONTRACT_NAMES)[number];

/**
 * The Foundry artifact of each contract this project compiles. `Stablecoin` is the project's
 * TestStablecoin on a local chain only: on a known testnet it is the chain's USDC, so code asks the
 * escrow (`token()`) which stablecoin it holds rather than trusting this name. EAS and SchemaRegistry
 * come from the EAS npm package.
 */
export const FOUNDRY_ARTIFACTS = {
  Stablecoin: "TestStablecoin",
  OperatorRegistry: "OperatorRegistry",
  GuildRegistry: "GuildRegistry",
  MissionEscrow: "MissionEscrow",
  AchievementNFT: "AchievementNFT",
  ReputationRegistry: "ReputationRegistry",
} as const satisfies Partial<Record<ContractName, string>>;

/** The deployment file `script/Deploy.s.sol` writes (the indexer and the API read it). */
export type Deployment = {
  chainId: number;
  deployer: Address;
  relayer: Address;
  /**
   * The RelayerExecutor: the operator users approve, through which the relayer key pool forwards their
   * calls. Absent in files written before it existed (the API then sends directly from the relayer).
   */
  executor?: Address;
  contracts: Record<ContractName, { address: Address; startBlock: number }>;
  ratingSchemaUid: Hex;
  /** The lowest startBlock of the contracts. */
  startBlock: number;
};

/** A parsed deployment file; files written before the stablecoin entry was renamed name it TestStablecoin. */
export function normalizeDeployment(
  json: Deployment & { contracts: { TestStablecoin?: Deployment["contracts"]["Stablecoin"] } },
): Deployment {
  const { TestStablecoin: legacy, ...contracts } = json.contracts;
  if (legacy && !contracts.Stablecoin) return { ...json, contracts: { ...contracts, Stablecoin: legacy } };
  return { ...json, contracts } as Deployment;
}

/** The address users approve as their operator: the deployment's executor, else (older files) its relayer. */
export const operatorOf = (d: Pick<Deployment, "executor" | "relayer">): Address => d.executor ?? d.relayer;
