// Grants RESOLVER_ROLE on the escrow to every account whose level crosses into "resolving" (the
// spec's Mid Game, level 11), through the relayer's primary key (the escrow admin on the local
// chain). Once per account: the chain is read first and a held role is never granted again, so a
// replayed entry or a second crossing (after a reorg) sends nothing. A role an admin revoked later is
// not given back by later level-ups: only the crossing grants.
import type { Address, Hex } from "viem";
import { missionEscrowAbi } from "../../abis/index.ts";
import { levelRequiredFor } from "../../domain/unlocks.ts";
import { confirmationsFor } from "./finality.ts";
import type { Deps } from "../deps.ts";
import type { JournalEntry, Reactor, ReactorContext } from "./types.ts";

/** The account a LEVEL_UP entry makes a resolver, or null (pure). */
export function newResolver(entry: Pick<JournalEntry<"LEVEL_UP">, "payload" | "account">): string | null {
  const at = levelRequiredFor("resolving");
  const from = Number(entry.payload.previousLevel);
  const to = Number(entry.payload.level);
  const user = String(entry.payload.user ?? entry.account ?? "").toLowerCase();
  return user && from < at && to >= at ? user : null;
}

export async function grantResolverOnce(deps: Deps, account: string, log: ReactorContext["logger"]): Promise<"granted" | "held"> {
  const escrow = deps.chain.deployment!.contracts.MissionEscrow.address as Address;
  const pc = deps.chain.publicClient;
  const role = (await pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "RESOLVER_ROLE" })) as Hex;
  const held = () => pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "hasRole", args: [role, account as Address] }) as Promise<boolean>;
  if (await held()) return "held";
  const sent = await deps.relayer!.send("grantRole", [role, account as Address]);
  log.info("resolver role granted", { account, tx: sent.hash });
  return "granted";
}

export const resolverGrantsReactor: Reactor<"LEVEL_UP"> = {
  name: "resolver-grants",
  types: ["LEVEL_UP"],
  // Not irreversible (an admin can revoke), but a grant for a level-up a reorg removes would stand.
  confirmations: confirmationsFor,
  async handle(entry, ctx) {
    const { deps } = ctx;
    if (!deps.relayer || !deps.chain.deployment) return;
    const account = newResolver(entry);
    if (account) await grantResolverOnce(deps, account, ctx.logger);
  },
};
