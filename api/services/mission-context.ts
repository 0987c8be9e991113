// Shared helpers of the mission services: deployment readiness, chain reads with 503 mapping,
// lookups and the balance/allowance pre-check.
import { bytesToHex, type Address, type Hex } from "viem";
import type { ChainContext, Relayer, SentTx } from "../lib/ports.ts";
import { AppError } from "../lib/errors.ts";
import { formatAmount, stablecoinAbi } from "../../domain/index.ts";
import type { MissionDetailsRepository } from "../repositories/mission-details.repository.ts";
import type { MissionsRepository, MissionRow } from "../repositories/missions.repository.ts";
import type { UsersRepository } from "../repositories/users.repository.ts";
import { isChainUnreachable } from "./chain-errors.ts";
import { missionParties, singleView } from "./mission-view.ts";
import type { PrivacyService } from "./privacy.ts";
import type { SetupGate } from "./wallet/wallet-setup.service.ts";

export interface MissionDeps {
  chain: ChainContext;
  relayer: Relayer | null;
  missions: MissionsRepository;
  details: MissionDetailsRepository;
  users: UsersRepository;
  privacy: Pick<PrivacyService, "lens">;
  /** Asked before relaying for a user: 403 SETUP_REQUIRED when the wallet has not authorised the service. */
  setup: SetupGate;
}

export const event = (tx: SentTx, name: string) => tx.events.find((e) => e.eventName === name)?.args;
export const salt = (): Hex => bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
export const eq = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

export function missionContext(deps: MissionDeps) {
  const { chain, missions } = deps;
  const ready = () => {
    if (!chain.deployment || !deps.relayer) throw new AppError("CHAIN_UNAVAILABLE", "No contracts are deployed yet");
    return { deployment: chain.deployment, relayer: deps.relayer, escrow: chain.deployment.contracts.MissionEscrow.address };
  };
  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (isChainUnreachable(err)) throw new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
      throw err;
    }
  };
  const mustFind = async (id: string): Promise<MissionRow> => {
    const row = await missions.findById(id);
    if (!row) throw new AppError("MISSION_NOT_FOUND", `Mission ${id} not found`);
    return row;
  };
  /**
   * The owner's balance and the escrow's allowance cover `amount`. `granted`: the set-up gate's read of
   * that allowance, running beside this check (its own error wins; null: it read none, read it here).
   */
  const assertFunds = async (owner: Address, amount: bigint, granted?: Promise<bigint | null>) => {
    const { escrow } = ready();
    const [balance, allowance] = await read(async () => {
      const token = await chain.stablecoin();
      return Promise.all([
        chain.publicClient.readContract({ address: token, abi: stablecoinAbi, functionName: "balanceOf", args: [owner] }),
        (granted ?? Promise.resolve(null)).then((g) =>
          g ?? chain.publicClient.readContract({ address: token, abi: stablecoinAbi, functionName: "allowance", args: [owner, escrow] })),
      ]);
    });
    if ((balance as bigint) < amount) {
      throw new AppError("INSUFFICIENT_BALANCE", `Balance ${formatAmount(balance as bigint)} is below ${formatAmount(amount)}`);
    }
    if ((allowance as bigint) < amount) {
      throw new AppError("INSUFFICIENT_BALANCE", `Escrow allowance ${formatAmount(allowance as bigint)} is below ${formatAmount(amount)}: approve the escrow`);
    }
  };
  const view = async (id: string, viewer: Address) => {
    const row = await missions.findById(id);
    return row ? singleView(row, viewer, await deps.privacy.lens(viewer, missionParties([row]))) : null;
  };

  const requireSetup = (user: string, allowance?: bigint) => deps.setup.require(user as Address, allowance);

  return { ready, read, mustFind, assertFunds, view, requireSetup };
}
