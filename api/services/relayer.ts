// The ONE module that sends transactions. Sends are serialised in-process (a promise chain) and
// across API copies (a Postgres advisory lock); the nonce is the chain's pending count read under
// the lock, so concurrent requests never collide. Every call is simulated first so a revert is
// decoded (custom error -> API code) without spending gas. After mining, it waits (bounded) until
// the indexer has reached the block: read-your-writes.
import {
  createWalletClient,
  defineChain,
  http,
  parseEventLogs,
  type Abi,
  type Account,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { errorsAbi, missionEscrowAbi, testStablecoinAbi } from "../../abis/index.ts";
import type { Database } from "../db/client.ts";
import { AppError } from "../lib/errors.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { decodedRevert, isChainUnreachable, mapRevert } from "./chain-errors.ts";
import type { IndexerService } from "./indexer.service.ts";

/** anvil's public development mnemonic (its keys hold no real value); used only on chain 31337. */
const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
const RELAYER_LOCK = 7_301_002;
/** Escrow functions plus every custom error, so viem can decode any revert. */
export const escrowCallAbi = [...missionEscrowAbi, ...errorsAbi, ...testStablecoinAbi] as unknown as Abi;

export function relayerAccount(privateKey: Hex | undefined, chainId: number): Account {
  if (privateKey) return privateKeyToAccount(privateKey);
  if (chainId === 31337) return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 });
  throw new Error("RELAYER_PRIVATE_KEY is required on a chain other than the local 31337");
}

export interface ChainEvent {
  eventName: string;
  args: Record<string, unknown>;
}

/** A contract other than the escrow (EAS, AchievementNFT, ReputationRegistry): its ABI must include its errors. */
export interface TxTarget {
  address: Address;
  abi: Abi;
}

export interface SentTx {
  hash: Hex;
  receipt: TransactionReceipt;
  events: ChainEvent[];
  indexed: boolean;
}

export function createRelayer(deps: {
  account: Account;
  chainId: number;
  rpcUrl: string;
  escrow: Address;
  publicClient: PublicClient;
  database: Database;
  indexer: IndexerService;
  logger: Logger;
  metrics: Metrics;
}) {
  const { account, publicClient, escrow, logger, metrics } = deps;
  const chain = defineChain({
    id: deps.chainId,
    name: `chain-${deps.chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [deps.rpcUrl] } },
  });
  const wallet = createWalletClient({ account, chain, transport: http(deps.rpcUrl, { timeout: 15_000, retryCount: 0 }) });
  let queue: Promise<unknown> = Promise.resolve();
  const serialize = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };

  const toAppError = (fn: string, err: unknown): AppError => {
    if (err instanceof AppError) return err;
    const revert = decodedRevert(err);
    if (revert) return mapRevert(fn, revert);
    if (isChainUnreachable(err)) return new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
    logger.error("relayer failure", { fn, err: err instanceof Error ? err.message : String(err) });
    return new AppError("INTERNAL_ERROR", "Internal server error");
  };

  const escrowTarget: TxTarget = { address: escrow, abi: escrowCallAbi };
  async function broadcast(fn: string, args: readonly unknown[], target: TxTarget = escrowTarget): Promise<Hex> {
    return serialize(async () => {
      const client = await deps.database.pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock($1)", [RELAYER_LOCK]);
        const { request } = await publicClient.simulateContract({
          account,
          address: target.address,
          abi: target.abi,
          functionName: fn,
          args,
        });
        // A nonce can still be taken by a sender outside this lock (an operator's script using the
        // same key): re-read it and retry a couple of times.
        for (let attempt = 0; ; attempt++) {
          const nonce = await publicClient.getTransactionCount({ address: account.address, blockTag: "pending" });
          try {
            return await wallet.writeContract({ ...(request as Parameters<typeof wallet.writeContract>[0]), nonce });
          } catch (err) {
            const text = err instanceof Error ? err.message : String(err);
            if (attempt >= 2 || !/nonce too low|nonce has already been used|already known|replacement transaction underpriced/i.test(text)) throw err;
            logger.warn("relayer nonce taken, retrying", { fn, nonce, attempt });
          }
        }
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [RELAYER_LOCK]).catch(() => {});
        client.release();
      }
    });
  }

  return {
    address: account.address,
    /** Sends escrow.`fn`(`args`) for a user; resolves after mining and indexing (bounded). */
    async send(fn: string, args: readonly unknown[], target: TxTarget = escrowTarget): Promise<SentTx> {
      let hash: Hex;
      try {
        hash = await broadcast(fn, args, target);
      } catch (err) {
        metrics.relayerTxs.inc({ fn, result: "rejected" });
        throw toAppError(fn, err);
      }
      let receipt: TransactionReceipt;
      try {
        receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 60_000, pollingInterval: 50 });
      } catch (err) {
        metrics.relayerTxs.inc({ fn, result: "unconfirmed" });
        throw toAppError(fn, err);
      }
      if (receipt.status !== "success") {
        metrics.relayerTxs.inc({ fn, result: "reverted" });
        // Replay the call on the state it met to learn why (a race another tx won, typically).
        try {
          await publicClient.simulateContract({
            account,
            address: target.address,
            abi: target.abi,
            functionName: fn,
            args,
            blockNumber: receipt.blockNumber,
          });
        } catch (err) {
          throw toAppError(fn, err);
        }
        throw new AppError("INTERNAL_ERROR", "Internal server error");
      }
      metrics.relayerTxs.inc({ fn, result: "mined" });
      const indexed = await deps.indexer.waitForBlock(receipt.blockNumber);
      if (!indexed) logger.warn("indexer did not reach the block in time", { fn, block: receipt.blockNumber });
      const eventsAbi = target === escrowTarget ? (missionEscrowAbi as unknown as Abi) : target.abi;
      return { hash, receipt, events: parseEventLogs({ abi: eventsAbi, logs: receipt.logs }) as unknown as ChainEvent[], indexed };
    },
  };
}
export type Relayer = ReturnType<typeof createRelayer>;
