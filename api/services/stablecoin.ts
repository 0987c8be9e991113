// The escrow's stablecoin: whatever `token()` says, never the deployment file's "Stablecoin" entry,
// which names the project's test token on a local chain only (a known testnet's USDC otherwise).
import type { Address, PublicClient } from "viem";
import { missionEscrowAbi } from "../../abis/index.ts";
import type { Deployment } from "../../domain/index.ts";

/** Reads `token()` once: it is immutable on the escrow. A failed read (chain down) is asked again next time. */
export function escrowStablecoin(publicClient: PublicClient, deployment: Deployment | null): () => Promise<Address> {
  let token: Promise<Address> | undefined;
  return () => {
    if (!deployment) return Promise.reject(new Error("No contracts are deployed yet"));
    token ??= publicClient
      .readContract({ address: deployment.contracts.MissionEscrow.address, abi: missionEscrowAbi, functionName: "token" })
      .catch((err: unknown) => {
        token = undefined;
        throw err;
      });
    return token;
  };
}
