// G1: the gas of one mission lifecycle (create, accept, submit, approve) as four REAL transactions on
// anvil with the real deployment (receipts' gasUsed, intrinsic 21,000 included), beside its floor
// measured on the same chain: what any escrow must pay for the same four calls.
//
// Floor (per step) = 21,000 intrinsic + the step's calldata (EIP-2028: 4 gas per zero byte, 16 per
// other byte; the calldata is fixed by the external signatures) + the token operations the payment
// rules require, measured as real TestStablecoin transactions (execution = gasUsed − 21,000 − calldata)
// + 22,100 per new storage slot (EIP-2929 cold SLOAD 2,100 + EIP-2200 zero→non-zero 20,000).
// - create: 1 transferFrom (poster → escrow) + 2 new slots (poster|reward|expiry and the 32-byte details
//   hash: 64 bytes a no-guild mission cannot do without);
// - accept: 1 new slot (performer|state: together with the above, a mission's 95 bytes need 3 slots);
// - submit: nothing new (a proof hash and a deadline; no token moves);
// - approve: 3 transfers (performer, protocol treasury, labs treasury: the "Payments" rule of issue 8),
//   the 2nd and 3rd from the escrow's already-written balance slot, i.e. each 4,900 cheaper than a lone
//   transfer (cold SLOAD 2,100 + non-zero write 2,900 → warm dirty write 100). Kept as the reference
//   after issue 40, whose approval makes one transfer and accrues the two fees (docs/decisions.md
//   "Payments"): the floor stays comparable across issues (under the new rule it would be 2 × (transfer
//   − 4,900) lower).
// Steady state, as on a live deployment: a warm-up lifecycle and one open mission first, so the counter,
// the escrow, the performer and both treasuries already hold non-zero values (no zero→non-zero token
// balance write, no refund for a balance going to zero); the poster calls directly (no operator).
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  maxUint256,
  toHex,
  type Address,
  type Hex,
} from "viem";
import { foundry } from "viem/chains";
import { missionEscrowAbi, testStablecoinAbi } from "../../../abis/generated.ts";
import { anvilAccount, anvilAddress } from "../../lib/accounts.ts";
import type { Deployment } from "../../lib/deploy.ts";

export const G1_GOAL_GAS = 230_000; // issue 40 (issue 8: 250,000)
export const SLOT_NEW = 22_100;
export const WARM_DIRTY_SAVING = 4_900;
const INTRINSIC = 21_000;
const REWARD = 100_000_000n; // 100 tUSDC
const DETAILS = keccak256(toHex("g1 details"));
const PROOF = keccak256(toHex("g1 proof"));
const EXPIRY = 30n * 86_400n;

export const G1_STEPS = ["createMission", "acceptMission", "submitProof", "approveMission"] as const;
export type G1Step = (typeof G1_STEPS)[number];

export interface StepGas {
  step: G1Step;
  gasUsed: number;
  calldataGas: number;
  floor: number;
  floorFormula: string;
}

export interface G1Result {
  steps: StepGas[];
  total: number;
  floor: number;
  token: { transferFromExec: number; transferExec: number };
  treasuries: { protocol: Address; labs: Address };
}

/** EIP-2028 calldata gas of `data` (hex, with the selector). */
export function calldataGas(data: Hex): number {
  let gas = 0;
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === "00" ? 4 : 16;
  return gas;
}

/** The treasuries the G1 deployment uses: distinct, as in production (by default both are the deployer). */
export const G1_TREASURIES = { protocol: anvilAddress(10), labs: anvilAddress(11) };

export async function measureLifecycle(rpcUrl: string, deployment: Deployment): Promise<G1Result> {
  const publicClient = createPublicClient({ chain: foundry, transport: http(rpcUrl) });
  const escrow = deployment.contracts.MissionEscrow.address;
  const token = deployment.contracts.Stablecoin.address;
  const poster = anvilAccount(1);
  const performer = anvilAccount(2);
  const wallet = createWalletClient({ chain: foundry, transport: http(rpcUrl) });

  const send = async (account: typeof poster, to: Address, data: Hex) => {
    const hash = await wallet.sendTransaction({ account, to, data, chain: foundry });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`G1: transaction ${hash} reverted`);
    return { gasUsed: Number(receipt.gasUsed), calldataGas: calldataGas(data), receipt };
  };
  const escrowCall = (functionName: G1Step, args: readonly unknown[]) =>
    encodeFunctionData({ abi: missionEscrowAbi, functionName, args } as never) as Hex;

  const lifecycle = async () => {
    const block = await publicClient.getBlock();
    // 30 days, not the 7-day review window: submit writes now + 7 days over the expiry kept in the record,
    // and with a 7-day expiry made in the same second the write would change nothing (2,800 gas less than
    // a real submit, which comes later than its create).
    const expiresAt = block.timestamp + EXPIRY;
    const createData = escrowCall("createMission", [poster.address, REWARD, expiresAt, 0, DETAILS]);
    const created = await send(poster, escrow, createData);
    const id = (await publicClient.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "missionCount" })) as bigint;
    const accepted = await send(performer, escrow, escrowCall("acceptMission", [id, performer.address, DETAILS]));
    const submitted = await send(performer, escrow, escrowCall("submitProof", [id, PROOF]));
    const approved = await send(poster, escrow, escrowCall("approveMission", [id]));
    return [created, accepted, submitted, approved] as const;
  };

  // Warm-up: every balance and counter the steady state has, and one more mission left open so the
  // escrow's own balance never touches zero (a live escrow always holds other missions' rewards).
  await lifecycle();
  const block = await publicClient.getBlock();
  await send(poster, escrow, escrowCall("createMission", [poster.address, REWARD, block.timestamp + EXPIRY, 0, DETAILS]));
  const measured = await lifecycle();

  // The token operations alone, on the same token, in the same steady state (non-zero balances, max allowance).
  const spender = anvilAccount(3);
  const holder = anvilAccount(4);
  const recipient = anvilAddress(5);
  await send(holder, token, encodeFunctionData({ abi: testStablecoinAbi, functionName: "approve", args: [spender.address, maxUint256] }));
  const tf = await send(
    spender,
    token,
    encodeFunctionData({ abi: testStablecoinAbi, functionName: "transferFrom", args: [holder.address, recipient, REWARD] }),
  );
  const tr = await send(holder, token, encodeFunctionData({ abi: testStablecoinAbi, functionName: "transfer", args: [recipient, REWARD / 2n] }));
  const transferFromExec = tf.gasUsed - INTRINSIC - tf.calldataGas;
  const transferExec = tr.gasUsed - INTRINSIC - tr.calldataGas;

  const floorParts: Record<G1Step, { extra: number; formula: string }> = {
    createMission: { extra: transferFromExec + 2 * SLOT_NEW, formula: `transferFrom ${transferFromExec} + 2 × ${SLOT_NEW}` },
    acceptMission: { extra: SLOT_NEW, formula: `1 × ${SLOT_NEW}` },
    submitProof: { extra: 0, formula: "no token, no new slot" },
    approveMission: {
      extra: 3 * transferExec - 2 * WARM_DIRTY_SAVING,
      formula: `3 × transfer ${transferExec} − 2 × ${WARM_DIRTY_SAVING}`,
    },
  };
  const steps: StepGas[] = G1_STEPS.map((step, i) => {
    const m = measured[i]!;
    const part = floorParts[step];
    return {
      step,
      gasUsed: m.gasUsed,
      calldataGas: m.calldataGas,
      floor: INTRINSIC + m.calldataGas + part.extra,
      floorFormula: `21000 + calldata ${m.calldataGas} + ${part.formula}`,
    };
  });
  return {
    steps,
    total: steps.reduce((s, x) => s + x.gasUsed, 0),
    floor: steps.reduce((s, x) => s + x.floor, 0),
    token: { transferFromExec, transferExec },
    treasuries: G1_TREASURIES,
  };
}
