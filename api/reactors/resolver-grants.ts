// Grants RESOLVER_ROLE on the escrow to every account whose level crosses into "resolving" (the
// spec's Mid Game, level 11), through the relayer's primary key (the escrow admin on the local
// chain). Once per account: the chain is read first and a held role is never granted again, so a
// replayed entry or a second crossing (after a reorg) sends nothing. A role an admin revoked later is
// not given back by later level-ups: only the crossing grants.
import type { Address, Hex } from "viem";
import { missionEscrowAbi } from "../../abis/index.ts";
import { levelRequiredFor } from "../../domain/unlocks.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import type { JournalEntry, Reactor, ReactorContext } from "./types.ts";

/** The account a LEVEL_UP entry makes a resolver, or null (pure). */
export function newResolver(entry: Pick<JournalEntry<"LEVEL_UP">, "payload" | "account">): string | null {
  const at = levelRequiredFor("resolving");
  const from = Number(entry.payload.previousLevel);
  const to = Number(entry.payload.level);
  const user = String(entry.payload.user ?? entry.account ?? "").toLowerCase();
  return user && from < at && to >= at ? user : null;
}

/** What the resolver-grants reactor uses. */
export interface ResolverGrantPorts {
  chain: Pick<ChainContext, "deployment" | "publicClient">;
  /** Null without a deployment: nothing is granted. */
  relayer: Pick<Relayer, "send"> | null;
  /**
   * Blocks on top before a grant (confirmationsFor): not irreversible (an admin can revoke), but a
   * grant for a level-up a reorg removes would stand.
   */
  confirmations: number;
}

export async function grantResolverOnce(ports: ResolverGrantPorts, account: string, log: ReactorContext["logger"]): Promise<"granted" | "held"> {
  const escrow = ports.chain.deployment!.contracts.MissionEscrow.address as Address;
  const pc = ports.chain.publicClient;
  const role = (await pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "RESOLVER_ROLE" })) as Hex;
  const held = () => pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "hasRole", args: [role, account as Address] }) as Promise<boolean>;
  if (await held()) return "held";
  const sent = await ports.relayer!.send("grantRole", [role, account as Address]);
  log.info("resolver role granted", { account, tx: sent.hash });
  return "granted";
}

export function resolverGrantsReactor(ports: ResolverGrantPorts): Reactor<"LEVEL_UP"> {
  return {
    name: "resolver-grants",
    types: ["LEVEL_UP"],
    confirmations: ports.confirmations,
    async handle(entry, ctx) {
      if (!ports.relayer || !ports.chain.deployment) return;
      const account = newResolver(entry);
      if (account) await grantResolverOnce(ports, account, ctx.logger);
    },
  };
}
