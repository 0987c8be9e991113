// The interfaces services are built from. A leaf: it imports types only, never app modules, so any
// service can depend on these without reaching back into the composition root (api/deps.ts).
import type { Abi, Address, ContractFunctionArgs, ContractFunctionName, Hex, PublicClient, TransactionReceipt } from "viem";
import type { missionEscrowAbi } from "../../abis/index.ts";
import type { Deployment } from "../../domain/index.ts";

export interface ChainContext {
  chainId: number;
  rpcUrl: string;
  publicClient: PublicClient;
  /**
   * The same node without JSON-RPC batching: a read that must leave at once (the batch scheduler holds
   * every call for a timer tick, until the synchronous work after it is done). None: `publicClient`.
   */
  directClient?: PublicClient;
  /** Null until a deployment file exists. */
  deployment: Deployment | null;
  /** The stablecoin the escrow holds (its `token()`); rejects without a deployment or a reachable chain. */
  stablecoin(): Promise<Address>;
  /** EAS explorer base for attestation links: EXPLORER_URL, else the known chain's, else none. */
  explorerUrl: string | null;
}

export interface ChainEvent {
  eventName: string;
  args: Record<string, unknown>;
}

/** A contract other than the escrow (EAS, AchievementNFT, ReputationRegistry); the relayer adds the project's errors to its ABI for decoding. */
export interface TxTarget<abi extends Abi = Abi> {
  address: Address;
  abi: abi;
}

type Writable = "nonpayable" | "payable";
/** A state-changing function of `abi`, and its arguments. */
export type WriteName<abi extends Abi> = ContractFunctionName<abi, Writable>;
export type WriteArgs<abi extends Abi, fn extends WriteName<abi>> = ContractFunctionArgs<abi, Writable, fn>;
export type EscrowAbi = typeof missionEscrowAbi;

export interface SentTx {
  hash: Hex;
  receipt: TransactionReceipt;
  events: ChainEvent[];
  indexed: boolean;
}

/** A relayer key's last read balance: low = under RELAYER_MIN_BALANCE_WEI; empty = cannot pay one transaction. */
export interface KeyBalance {
  address: Address;
  balanceWei: bigint | null;
  low: boolean;
  empty: boolean;
}

/** A send's gas estimate started early (`Relayer.lookAhead`): opaque to the caller, handed back to `send`. */
export interface SendAhead {
  readonly sendAhead: true;
}

/** Sends contract calls from one account (the operator users approve). */
export interface Relayer {
  readonly address: Address;
  /**
   * Sends `fn`(`args`) on the escrow (or `target`); resolves after mining and indexing (bounded).
   * `ahead`: what `lookAhead` started for this send; its estimate is used only if the call is the same.
   */
  send<abi extends Abi = EscrowAbi, fn extends WriteName<abi> = WriteName<abi>>(
    fn: fn,
    args: WriteArgs<abi, fn>,
    target?: TxTarget<abi>,
    ahead?: SendAhead,
  ): Promise<SentTx>;
  /** Each key's balance; `refresh` reads the chain first. */
  balances(refresh?: boolean): Promise<KeyBalance[]>;
  /**
   * Starts the next send's own bookkeeping read (its request's recorded transaction, if any) now, so
   * that it runs beside the caller's checks; the send takes it. Given the call the caller expects to
   * make (on the escrow), also starts its gas estimate (the simulation) and the charge of the
   * caller's relayer budget, and returns them for `send`, which uses the estimate only when it sends
   * that very call from the key it was estimated for. A caller that then does not send calls
   * `release`. Optional.
   */
  lookAhead?<fn extends WriteName<EscrowAbi>>(fn?: fn, args?: WriteArgs<EscrowAbi, fn>): SendAhead | undefined;
  /** What `lookAhead` started and no send will use: the budget charge is taken back. */
  release?(ahead: SendAhead): Promise<void>;
  /**
   * Whether the look-ahead's simulation of its call passed on the chain's latest state (false when it
   * failed, could not be made or none was started). Never rejects. Optional.
   */
  simulated?(ahead: SendAhead): Promise<boolean>;
}
