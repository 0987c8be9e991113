// B7's (and B5's) baseline: the smallest Ponder app that indexes the escrow's lifecycle events of the same
// chain as our indexer (same transport settings: the RPC pace lifted on anvil, http polling every 100 ms, no RPC cache on anvil).
// Self-contained on purpose (no imports from the repo): b7 copies this folder into its scratch dir
// and runs it there, so the ponder-env.d.ts Ponder writes into its root stays out of the repo.
import fs from "node:fs";
import { createConfig } from "ponder";
import { parseAbi } from "viem";

const deployment = JSON.parse(fs.readFileSync(process.env.DEPLOYMENT_FILE!, "utf8")) as {
  chainId: number;
  contracts: { MissionEscrow: { address: `0x${string}`; startBlock: number } };
};

export const escrowLifecycleAbi = parseAbi([
  "event MissionCreated(uint256 indexed missionId, address indexed poster, uint32 guildId, uint256 reward, uint256 expiresAt, uint16 guildFeeBps, bytes32 detailsHash)",
  "event MissionAccepted(uint256 indexed missionId, address indexed performer)",
  "event MissionSubmitted(uint256 indexed missionId, bytes32 proofHash, uint256 reviewDeadline)",
  "event MissionCompleted(uint256 indexed missionId, (uint256 performerAmount, uint256 protocolAmount, uint256 guildAmount, uint256 labsAmount, uint256 resolverAmount) settlement, bool byClaim)",
]);

export default createConfig({
  chains: {
    local: {
      id: deployment.chainId,
      // As our indexer (ponder.config.ts, LOCAL_RPC_ENTRIES): the local chain's endpoint listed 25 times,
      // so that Ponder's per-endpoint pace (20 requests a second at first) bounds neither side.
      rpc: deployment.chainId === 31337 ? Array.from({ length: 25 }, () => process.env.RPC_URL!) : process.env.RPC_URL!,
      // B5 follows a live chain over websocket heads, as our indexer does; B7 passes "" (http polling).
      ws: process.env.RPC_WS_URL || undefined,
      pollingInterval: 100,
      disableCache: deployment.chainId === 31337,
    },
  },
  contracts: {
    MissionEscrow: {
      chain: "local",
      abi: escrowLifecycleAbi,
      address: deployment.contracts.MissionEscrow.address,
      startBlock: deployment.contracts.MissionEscrow.startBlock,
    },
  },
});
