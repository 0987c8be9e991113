// Shared by the money e2e files (settlement.test.ts, money-parts.test.ts): fresh signed-in parties, a
// Submitted mission made by direct chain calls, balances read on chain, and the settlement rule of
// docs/decisions.md computed here on its own (not with the contract's or the API's code).
import { type Abi, type Address } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { expect } from "vitest";
import { missionEscrowAbi, operatorRegistryAbi, testStablecoinAbi } from "../../abis/index.ts";
import { missionUuid, operatorOf } from "../../domain/index.ts";
import { signIn, type TestApi } from "./api-helpers.ts";
import type { chainEnv } from "./indexer-helpers.ts";

export type Chain = ReturnType<typeof chainEnv>;
export type Party = PrivateKeyAccount & { token: string };

export const expectError = (res: { status: number; body: any }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code, JSON.stringify(res.body)).toBe(code);
  return res.body;
};
export const ok = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
/** "12.345678" → 12345678n (the test's own reading of the API's decimal strings). */
export const units = (s: string) => {
  const [w, f = ""] = s.split(".");
  return BigInt(w!) * 1_000_000n + BigInt(f.padEnd(6, "0"));
};
export const dec = (v: bigint) => `${v / 1_000_000n}.${(v % 1_000_000n).toString().padStart(6, "0")}`;

// ---- the rules of docs/decisions.md ("Money and fees", "Money in trouble"), independently ----
const bps = (x: bigint, b: bigint) => (x * b) / 10_000n;
/** An amount settled as on approval, no guild: protocol 2.5 % (20 % of it to the resolver pool), labs 1 %. */
export function settle(amount: bigint) {
  const protocolShare = bps(amount, 250n);
  const pool = bps(protocolShare, 2_000n);
  const labs = bps(amount, 100n);
  return { performer: amount - protocolShare - labs, treasury: protocolShare - pool, labs, pool };
}
export const reserve = (x: bigint) => (bps(x, 500n) > 1_000_000n ? bps(x, 500n) : 1_000_000n);
/** mission_complete XP (builder 1.0, first in a streak): 10 + 4·floor(log2(1 + whole USDC)), at most 50. */
export const missionXp = (paid: bigint) => Math.min(50, 10 + 4 * ((paid / 1_000_000n + 1n).toString(2).length - 1));
export const RESOLVER_FEE = 5_000_000n;

export function moneyEnv(chain: Chain, api: () => TestApi) {
  const escrowRead = <T>(functionName: string, args: readonly unknown[] = []) =>
    chain.client.readContract({ address: chain.c.MissionEscrow.address, abi: missionEscrowAbi as Abi, functionName, args }) as Promise<T>;
  let treasuries: { protocol: Address; labs: Address } | undefined;

  /** A fresh funded wallet that authorised the service's operator, signed in. */
  async function party(funds?: bigint): Promise<Party> {
    const u = await chain.freshUser(funds);
    await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
    return Object.assign(u, { token: await signIn(api().url, u) });
  }

  /** A mission made by direct chain calls up to `state` (the routes under test are the money ones). */
  async function mission(poster: Party, performer: Party, reward: bigint, state: "Accepted" | "Submitted" = "Submitted") {
    const m = await chain.createMission(poster, reward);
    if (state === "Accepted") await chain.escrow(performer, "acceptMission", [m.onChainId, performer.address, m.detailsHash]);
    else await chain.acceptAndSubmit(performer, m);
    return { ...m, id: missionUuid(chain.deployment.chainId, chain.c.MissionEscrow.address, m.onChainId) };
  }

  async function balanceOf(a: Address): Promise<bigint> {
    return (await chain.client.readContract({
      address: chain.c.Stablecoin.address, abi: testStablecoinAbi, functionName: "balanceOf", args: [a],
    })) as bigint;
  }

  /**
   * Every balance the money touches: the parties, the treasuries, the escrow, and what the escrow accrues
   * (the resolver pool; the protocol and labs fees until withdrawFees: issue 40, so settlements move
   * `protocolFees` / `labsFees`, never the treasuries' balances).
   */
  async function snapshot(who: Record<string, Address>) {
    treasuries ??= {
      protocol: await escrowRead<Address>("protocolTreasury"),
      labs: await escrowRead<Address>("labsTreasury"),
    };
    const all: Record<string, Address> = { ...who, protocol: treasuries.protocol, labs: treasuries.labs, escrow: chain.c.MissionEscrow.address };
    const out: Record<string, bigint> = {};
    for (const [k, a] of Object.entries(all)) out[k] = await balanceOf(a);
    out.pool = await escrowRead<bigint>("resolverPool");
    [out.protocolFees, out.labsFees] = await escrowRead<readonly [bigint, bigint]>("accruedFees");
    return out;
  }

  /**
   * Each balance moved by exactly `delta` (missing keys: by 0). The treasuries may be one address on a
   * deployment: their deltas then add up.
   */
  async function expectMoved(before: Record<string, bigint>, who: Record<string, Address>, delta: Record<string, bigint>) {
    const after = await snapshot(who);
    const sameTreasury = treasuries!.protocol.toLowerCase() === treasuries!.labs.toLowerCase();
    for (const k of Object.keys(before)) {
      let want = delta[k] ?? 0n;
      if (sameTreasury && (k === "protocol" || k === "labs")) want = (delta.protocol ?? 0n) + (delta.labs ?? 0n);
      expect(after[k]! - before[k]!, `balance change of ${k}`).toBe(want);
    }
    return after;
  }

  return { party, mission, snapshot, expectMoved, escrowRead, balanceOf };
}
