// Ponder config: every marketplace contract of the deployment file on one chain. Launched as
// `ponder start --root indexer --config ../ponder.config.ts` (see script/lib/indexer.ts).
import { createConfig } from "ponder";
import {
  achievementNftAbi,
  easAbi,
  guildRegistryAbi,
  missionEscrowAbi,
  operatorRegistryAbi,
  reputationRegistryAbi,
} from "./indexer/lib/abis.ts";
import { readDeployment } from "./indexer/lib/deployment.ts";
import { knownChain } from "./indexer/lib/known-chains.ts";

const deployment = readDeployment();
const { contracts: c } = deployment;
const rpc = process.env.RPC_URL ?? "http://127.0.0.1:8545";
// A websocket subscription is the lowest-latency source of new blocks (anvil serves ws on its
// http port).
const ws = process.env.RPC_WS_URL || undefined;
const known = knownChain(deployment.chainId);
const chain = process.env.PONDER_CHAIN_NAME ?? (deployment.chainId === 31337 ? "local" : (known?.name ?? `chain${deployment.chainId}`));
// Without a websocket: 100 ms locally; on a real network a quarter of a block, so a public RPC is not
// asked ten times a second for nothing. Ponder keeps its own reorg depth per chain id (no setting).
const pollingInterval = known ? Math.max(100, (known.blockTimeSeconds * 1000) / 4) : 100;

// Ponder paces every RPC endpoint it is given: 20 requests a second at first, raised by 5 % only after
// ten busy seconds (node_modules/ponder/dist/esm/rpc/index.js, INITIAL_MAX_RPS; `maxRequestsPerSecond`
// is deprecated and read by nothing). A live block costs 2 requests, so a fresh Ponder indexes about
// 10 blocks a second whatever their size, and a backfill waits on the same pace. That protects a public
// RPC from 429s; anvil has no limit, so on the local chain the same endpoint is listed 25 times
// (Ponder keeps one pace per entry): about 500 requests a second from the start (measured on automine:
// empty blocks indexed 11 -> 49-60 a second; docs/decisions.md "Writes at the floor: Ponder's RPC pace").
const LOCAL_RPC_ENTRIES = 25;
const rpcBackends = deployment.chainId === 31337 ? Array.from({ length: LOCAL_RPC_ENTRIES }, () => rpc) : rpc;

const at = (name: keyof typeof c) => ({ chain, address: c[name].address, startBlock: c[name].startBlock });

export default createConfig({
  chains: {
    // anvil chains are thrown away and restarted with the same id: never reuse Ponder's RPC cache there.
    [chain]: { id: deployment.chainId, rpc: rpcBackends, ws, pollingInterval, disableCache: deployment.chainId === 31337 },
  },
  contracts: {
    MissionEscrow: { abi: missionEscrowAbi, ...at("MissionEscrow") },
    GuildRegistry: { abi: guildRegistryAbi, ...at("GuildRegistry") },
    AchievementNFT: { abi: achievementNftAbi, ...at("AchievementNFT") },
    ReputationRegistry: { abi: reputationRegistryAbi, ...at("ReputationRegistry") },
    OperatorRegistry: { abi: operatorRegistryAbi, ...at("OperatorRegistry") },
    EAS: {
      abi: easAbi,
      ...at("EAS"),
      filter: { event: "Attested", args: { schemaUID: deployment.ratingSchemaUid } },
    },
  },
});
