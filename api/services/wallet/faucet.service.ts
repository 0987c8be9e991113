// Test stablecoin for developers who connect their own wallet: minted by the relayer (which holds the
// test token's FAUCET_ROLE), once per hour per wallet. Local chain only, unless FAUCET_ENABLED and the
// deployment's stablecoin is the project's test token.
import { keccak256, toHex, type Address } from "viem";
import { testStablecoinAbi } from "../../../abis/index.ts";
import type { ChainContext, Relayer } from "../../lib/ports.ts";
import { AppError } from "../../lib/errors.ts";
import { formatAmount } from "../../../domain/index.ts";
import type { FaucetRepository } from "../../repositories/faucet.repository.ts";
import { unbudgeted } from "../relayer/budget.ts";

/** 1,000 tokens in base units (6 decimals). */
export const FAUCET_AMOUNT = 1_000_000_000n;
export const FAUCET_COOLDOWN_SECONDS = 3600;
const FAUCET_ROLE = keccak256(toHex("FAUCET_ROLE"));

export function faucetService(deps: { chain: ChainContext; relayer: Relayer | null; claims: FaucetRepository; enabled: boolean }) {
  const { chain } = deps;
  let isTestToken: Promise<boolean> | undefined;
  const notHere = () => new AppError("NOT_FOUND", "No faucet on this deployment");
  // The escrow's token, spoken to as the project's test token: only that one can mint (see mintable).
  const token = async () => {
    if (!chain.deployment || !deps.relayer) throw notHere();
    const address = await chain.stablecoin();
    return { address, abi: testStablecoinAbi, relayer: deps.relayer };
  };
  // The project's test token grants FAUCET_ROLE and our relayer holds it; a real USDC has neither.
  const mintable = () => {
    isTestToken ??= token()
      .then((t) => chain.publicClient.readContract({ address: t.address, abi: t.abi, functionName: "hasRole", args: [FAUCET_ROLE, t.relayer.address] }) as Promise<boolean>)
      .catch((err: unknown) => {
        isTestToken = undefined; // unreachable chain: ask again next time
        if (err instanceof AppError) throw err;
        return false;
      });
    return isTestToken;
  };
  return {
    async drip(to: Address) {
      if (!(chain.chainId === 31337 || deps.enabled) || !(await mintable())) throw notHere();
      const t = await token();
      const address = to.toLowerCase();
      const claim = await deps.claims.claim(address, FAUCET_COOLDOWN_SECONDS);
      if (!claim.taken) {
        throw new AppError("RATE_LIMITED", `The faucet pays each wallet once per hour: try again in ${claim.retryAfter} s`, undefined, {
          "Retry-After": String(claim.retryAfter),
        });
      }
      try {
        // Its own hourly limit per address (above) bounds it: not charged to the wallet's relay budget.
        const tx = await unbudgeted(() => t.relayer.send("mint", [to, FAUCET_AMOUNT], t));
        return { amount: formatAmount(FAUCET_AMOUNT), transactionHash: tx.hash };
      } catch (err) {
        await deps.claims.release(address, claim.previous);
        throw err;
      }
    },
  };
}
export type FaucetService = ReturnType<typeof faucetService>;
