// Referrals: the caller names who referred them, once; it is recorded on ReputationRegistry by the
// relayer (REFERRER_ROLE), and the indexer pays the referrer's XP from that event (DESIGN rule 5).
import { type Address, zeroAddress } from "viem";
import { reputationRegistryAbi } from "../../abis/index.ts";
import { AppError, validationError } from "../lib/errors.ts";
import type { ChainContext, Relayer } from "../lib/ports.ts";
import type { UserRow, UsersRepository } from "../repositories/users.repository.ts";

export function referralsService(deps: { users: UsersRepository; chain: ChainContext; relayer: Relayer | null }) {
  return {
    async record(user: UserRow, referrerInput: string) {
      const referee = user.evmAddress.toLowerCase() as Address;
      const referrer = referrerInput.toLowerCase() as Address;
      if (referrer === referee) throw validationError([{ field: "body.referrer", reason: "cannot be yourself" }]);
      if (!(await deps.users.findByAddress(referrer))) {
        throw validationError([{ field: "body.referrer", reason: "is not a user of the service (has never signed in)" }]);
      }
      const { relayer, chain } = deps;
      if (!relayer || !chain.deployment) throw new AppError("CHAIN_UNAVAILABLE", "No deployment: the chain is not configured");
      const registry = { address: chain.deployment.contracts.ReputationRegistry.address, abi: reputationRegistryAbi };
      // The chain is the record: asked first so a repeat costs no transaction (a race still ends in
      // the contract's ReputationRegistry_AlreadyReferred, mapped to the same code).
      const existing = await chain.publicClient.readContract({ ...registry, functionName: "referrerOf", args: [referee] });
      if (existing !== zeroAddress) throw new AppError("ALREADY_REFERRED", `Already referred by ${existing.toLowerCase()}`);
      const sent = await relayer.send("recordReferral", [referrer, referee], registry);
      return { referee, referrer, transactionHash: sent.hash };
    },
  };
}
export type ReferralsService = ReturnType<typeof referralsService>;
