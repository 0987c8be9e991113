// Issue 40, G1, step 4 (a measurement, not a change of the relayer): what EIP-2930 access lists from
// `eth_createAccessList` would save per lifecycle step on anvil, and what they add to the transaction's size
// (on an OP-stack chain such as Base the L1 data fee is paid on the compressed transaction bytes).
// Usage: node --import tsx script/bench/g1-access-lists.ts [outFile.json]   (BENCH_FORGE_OUT / BENCH_FORGE_CACHE as G1)
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  keccak256,
  serializeTransaction,
  toHex,
  type AccessList,
  type Address,
  type Hex,
} from "viem";
import { foundry } from "viem/chains";
import { missionEscrowAbi } from "../../abis/generated.ts";
import { anvilAccount } from "../lib/accounts.ts";
import { startAnvil } from "../lib/anvil.ts";
import { deploy } from "../lib/deploy.ts";
import { G1_TREASURIES } from "./lib/lifecycle-gas-floor.ts";

const REWARD = 100_000_000n;
const DETAILS = keccak256(toHex("g1 details"));
const PROOF = keccak256(toHex("g1 proof"));
type Step = "createMission" | "acceptMission" | "submitProof" | "approveMission";

const anvil = await startAnvil();
try {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "g1-al-"));
  const deployment = await deploy({
    rpcUrl: anvil.rpcUrl,
    deploymentFile: path.join(dir, "deployment.json"),
    outDir: process.env.BENCH_FORGE_OUT || undefined,
    cachePath: process.env.BENCH_FORGE_CACHE || undefined,
    env: { PROTOCOL_TREASURY: G1_TREASURIES.protocol, LABS_TREASURY: G1_TREASURIES.labs },
  });
  const escrow = deployment.contracts.MissionEscrow.address;
  const pub = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  const wallet = createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  const poster = anvilAccount(1);
  const performer = anvilAccount(2);
  const call = (functionName: Step, args: readonly unknown[]) =>
    encodeFunctionData({ abi: missionEscrowAbi, functionName, args } as never) as Hex;

  type Row = { step: Step; gasUsed: number; estimate?: number; created?: number; accessList?: AccessList; alBytes?: number };
  // "full": the list as eth_createAccessList returns it (anvil keeps the called contract in it); "pruned":
  // without the entry of `to` (already warm: its 2,400 buys nothing but the keys' 200 each).
  type Mode = false | "full" | "pruned";
  const send = async (account: typeof poster, to: Address, data: Hex, withList: Mode): Promise<Omit<Row, "step">> => {
    let accessList: AccessList | undefined;
    let created: number | undefined;
    if (withList) {
      const r = (await pub.request({
        method: "eth_createAccessList" as never,
        params: [{ from: account.address, to, data }, "latest"] as never,
      })) as { accessList: AccessList; gasUsed: Hex };
      accessList = withList === "pruned" ? r.accessList.filter((e) => e.address.toLowerCase() !== to.toLowerCase()) : r.accessList;
      created = Number(BigInt(r.gasUsed));
    }
    const estimate = Number(await pub.estimateGas({ account: account.address, to, data, accessList }));
    const hash = await wallet.sendTransaction({ account, to, data, chain: foundry, type: "eip1559", accessList: accessList ?? [] });
    const receipt = await pub.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`reverted ${hash}`);
    // Size of the serialized (unsigned) transaction with and without the list: what the list adds on the wire.
    const base = { chainId: 31337, type: "eip1559" as const, to, data, nonce: 1, gas: 300_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };
    const alBytes = accessList
      ? (serializeTransaction({ ...base, accessList }).length - serializeTransaction({ ...base, accessList: [] }).length) / 2
      : 0;
    return { gasUsed: Number(receipt.gasUsed), estimate, created, accessList, alBytes };
  };
  const lifecycle = async (withList: Mode): Promise<Row[]> => {
    const block = await pub.getBlock();
    const out: Row[] = [];
    out.push({ step: "createMission", ...(await send(poster, escrow, call("createMission", [poster.address, REWARD, block.timestamp + 7n * 86_400n, 0, DETAILS]), withList)) });
    const id = (await pub.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "missionCount" })) as bigint;
    out.push({ step: "acceptMission", ...(await send(performer, escrow, call("acceptMission", [id, performer.address, DETAILS]), withList)) });
    out.push({ step: "submitProof", ...(await send(performer, escrow, call("submitProof", [id, PROOF]), withList)) });
    out.push({ step: "approveMission", ...(await send(poster, escrow, call("approveMission", [id]), withList)) });
    return out;
  };
  await lifecycle(false); // warm-up, as G1
  const block = await pub.getBlock();
  await send(poster, escrow, call("createMission", [poster.address, REWARD, block.timestamp + 7n * 86_400n, 0, DETAILS]), false);
  const rounds: { without: Row[]; with: Row[]; pruned: Row[] }[] = [];
  for (let i = 0; i < 2; i++) rounds.push({ without: await lifecycle(false), with: await lifecycle("full"), pruned: await lifecycle("pruned") });
  const last = rounds.at(-1)!;
  const table = last.without.map((w, i) => {
    const a = last.with[i]!;
    const p = last.pruned[i]!;
    const entries = a.accessList ?? [];
    return {
      step: w.step,
      without: w.gasUsed,
      with: a.gasUsed,
      saved: w.gasUsed - a.gasUsed,
      pruned: p.gasUsed,
      savedPruned: w.gasUsed - p.gasUsed,
      prunedBytes: p.alBytes,
      prunedList: p.accessList,
      createAccessListGasUsed: a.created,
      estimateWith: a.estimate,
      estimateWithout: w.estimate,
      addresses: entries.length,
      storageKeys: entries.reduce((s, e) => s + e.storageKeys.length, 0),
      accessListBytes: a.alBytes,
      accessList: entries,
    };
  });
  const sum = (k: "without" | "with" | "saved" | "accessListBytes" | "pruned" | "savedPruned" | "prunedBytes") => table.reduce((s, r) => s + (r[k] ?? 0), 0);
  const result = { rounds: rounds.map((r) => ({ without: r.without.map((x) => x.gasUsed), with: r.with.map((x) => x.gasUsed), pruned: r.pruned.map((x) => x.gasUsed) })), table, totals: { without: sum("without"), with: sum("with"), saved: sum("saved"), accessListBytes: sum("accessListBytes"), pruned: sum("pruned"), savedPruned: sum("savedPruned"), prunedBytes: sum("prunedBytes") } };
  const outFile = process.argv[2];
  if (outFile) fs.writeFileSync(outFile, JSON.stringify(result, null, 2));
  console.log(JSON.stringify({ ...result, table: table.map(({ accessList: _a, prunedList: _p, ...r }) => r) }, null, 2));
} finally {
  await anvil.stop();
}
