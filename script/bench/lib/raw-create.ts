// The baselines' raw viem createMission (B5, B6), sent the way the product's relayer sends it: through
// the deployment's RelayerExecutor (`execute(escrow, data)`, the sending key holds RELAYER_ROLE and the
// users approved the executor as their operator), or straight to the escrow on an older deployment.
import { encodeFunctionData, type Abi, type Address, type Hex } from "viem";
import { missionEscrowAbi, relayerExecutorAbi } from "../../../abis/index.ts";
import type { Deployment } from "../../../domain/contracts.ts";

export function rawCreateCall(d: Pick<Deployment, "executor" | "contracts">, args: [Address, bigint, bigint, number, Hex]) {
  const escrow = d.contracts.MissionEscrow.address;
  if (!d.executor) return { address: escrow, abi: missionEscrowAbi as Abi, functionName: "createMission", args } as const;
  const data = encodeFunctionData({ abi: missionEscrowAbi as Abi, functionName: "createMission", args });
  return { address: d.executor, abi: relayerExecutorAbi as Abi, functionName: "execute", args: [escrow, data] } as const;
}
