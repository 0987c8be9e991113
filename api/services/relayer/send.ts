// Preparing, recording and broadcasting one transaction. Outside any lock, gas is measured by a
// simulation (`estimate`), so a revert is decoded (custom error -> API code) before any gas is spent.
// Then the nonce is allocated, the tx signed and recorded in the outbox (one short Postgres
// transaction), and only then broadcast. The chain's pending nonce is read only on the first send of
// a process and after "nonce too low" (another sender used the key): re-sync.
import { BaseError, createPublicClient, encodeFunctionData, formatTransactionReceipt, keccak256, type Abi, type Account, type Address, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import { rpcTransport } from "../../lib/rpc-fetch.ts";
import { AppError } from "../../lib/errors.ts";
import { mark } from "../../lib/stage-trace.ts";
import type { Logger } from "../../lib/logger.ts";
import type { OutboxRepository } from "../../repositories/outbox.repository.ts";
import type { OutboxRow, RequestRef } from "../../repositories/outbox-rows.ts";
import { decodedRevert, isChainUnreachable } from "../chain-errors.ts";
import { errText, sendErrorKind, sleep } from "./common.ts";
import type { Fees } from "./fees.ts";
import type { Allocated } from "./nonce-allocator.ts";
import type { AllocateItem } from "../../repositories/outbox.repository.ts";

/** How long a send waits on eth_sendRawTransactionSync's answer (ms) before the block watcher takes over. */
const SYNC_WAIT_MS = 250;
// anvil: "Transaction confirmation timeout"; EIP-7966: code 4, "...wasn't processed...".
const SYNC_TIMEOUT = /confirmation timeout|timed? ?out|wasn't processed|not (yet )?(been )?(mined|processed|included)/i;
const METHOD_MISSING = /method .*(not (found|supported|available|exist))|does not exist|unsupported method|unknown method/i;
const walkCode = (err: unknown): number => {
  let code: unknown;
  if (err instanceof BaseError) err.walk((e) => (code = (e as { code?: unknown }).code ?? code, false));
  return typeof code === "number" ? code : 0;
};

/** A call as the relayer's internals see it: the ABI widened, so one code path serves every target. */
export interface Call {
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

export function createSender(deps: {
  account: Account;
  chainId: number;
  publicClient: PublicClient;
  outbox: OutboxRepository;
  logger: Logger;
  currentFees: () => Promise<Fees>;
  allocate: (item: AllocateItem, hint: bigint, reconcile: boolean) => Promise<Allocated>;
  signTx: NonNullable<Account["signTransaction"]>;
  crashAfterBroadcast?: boolean;
  /** A receipt the broadcast itself returned (eth_sendRawTransactionSync): for the receipt watcher. */
  onReceipt?: (receipt: TransactionReceipt) => void;
  /** The node's URL: broadcasts made together go out as one JSON-RPC batch (see `broadcastTogether`). */
  rpcUrl?: string;
  /** Before a group of broadcasts goes out: a wait (bounded) during which later broadcasts join the group. */
  hold?: () => Promise<void> | undefined;
}) {
  const { account, publicClient, outbox, logger, chainId } = deps;
  let reconciled = false;

  async function rawSend(raw: Hex): Promise<"sent" | "known" | "nonce-taken" | "fee-too-low"> {
    try {
      await publicClient.request({ method: "eth_sendRawTransaction", params: [raw] });
      return "sent";
    } catch (err) {
      const kind = sendErrorKind(errText(err));
      if (kind === "other") throw err;
      return kind;
    }
  }

  // eth_sendRawTransactionSync (EIP-7966) where the node has it (anvil 1.x: the raw tx only, no
  // timeout parameter; it waits up to 30 s): the receipt comes back in the broadcast's own answer as
  // soon as the tx is mined (on an automining node, before the call returns), instead of a receipt read
  // after it and the block watcher's polling. After SYNC_WAIT_MS the send counts as made and the
  // block watcher takes the tx over (replacement, watchdog); the call's answer, when it comes, still
  // settles the wait. A refusal is read by the plain broadcast of the same bytes ("already known" if
  // the node has them). A node without the method is asked once.
  let syncSend: boolean | null = null; // null: not asked yet
  async function broadcast(raw: Hex): Promise<{ outcome: Awaited<ReturnType<typeof rawSend>>; receipt?: TransactionReceipt }> {
    if (syncSend !== false) {
      const call = publicClient.request({ method: "eth_sendRawTransactionSync", params: [raw] } as never, { retryCount: 0 }) as Promise<unknown>;
      const first = await Promise.race([
        call.then((r) => ({ receipt: formatTransactionReceipt(r as never) as TransactionReceipt }), (err: unknown) => ({ err })),
        sleep(SYNC_WAIT_MS).then(() => null),
      ]);
      if (first === null) {
        syncSend = true;
        call.then((r) => deps.onReceipt?.(formatTransactionReceipt(r as never) as TransactionReceipt), () => {});
        return { outcome: "sent" };
      }
      if ("receipt" in first) {
        syncSend = true;
        return { outcome: "sent", receipt: first.receipt };
      }
      const err = first.err;
      if (isChainUnreachable(err)) throw err;
      if (SYNC_TIMEOUT.test(errText(err))) {
        syncSend = true; // the node's own wait ran out: it has the tx, not yet mined
        return { outcome: "sent" };
      }
      if (METHOD_MISSING.test(errText(err)) || walkCode(err) === -32601) {
        syncSend = false;
        logger.info("relayer: the node has no eth_sendRawTransactionSync; receipts come from the block watcher");
      }
    }
    return { outcome: await rawSend(raw) };
  }

  // Broadcasts made together (the sends of one nonce allocation resume in the same tick) go out as one
  // JSON-RPC batch of eth_sendRawTransaction, in nonce order: one round trip, and a node takes them
  // in together (an automining anvil puts 20 of them in 2 blocks, against 7 blocks for 20 concurrent
  // requests and 20 for a batch of eth_sendRawTransactionSync), so blocks, and the indexer's work
  // per write, are shared, as on a real chain where every tx of a block shares its wait. A broadcast
  // alone keeps the synchronous path above (its receipt in the answer). viem's batching http
  // transport builds the batch and reads each answer on its own (an error per item).
  const batchClient = deps.rpcUrl
    ? createPublicClient({ transport: rpcTransport(deps.rpcUrl, { timeout: 10_000, retryCount: 0, batch: { batchSize: 64, wait: 0 } }) })
    : null;
  let together: { raw: Hex; nonce: bigint; resolve(r: Awaited<ReturnType<typeof broadcast>>): void; reject(e: unknown): void }[] = [];
  function broadcastTogether(raw: Hex, nonce: bigint): ReturnType<typeof broadcast> {
    if (!batchClient) return broadcast(raw);
    return new Promise((resolve, reject) => {
      together.push({ raw, nonce, resolve, reject });
      if (together.length > 1) return;
      setImmediate(async () => {
        await deps.hold?.();
        const group = together.sort((a, b) => (a.nonce < b.nonce ? -1 : a.nonce > b.nonce ? 1 : 0));
        together = [];
        if (group.length === 1) return void broadcast(group[0]!.raw).then(group[0]!.resolve, group[0]!.reject);
        for (const item of group) {
          batchClient.request({ method: "eth_sendRawTransaction", params: [item.raw] }).then(
            () => item.resolve({ outcome: "sent" }),
            (err: unknown) => {
              const kind = sendErrorKind(errText(err));
              if (kind === "other") item.reject(err);
              else item.resolve({ outcome: kind });
            },
          );
        }
      });
    });
  }

  // The gas `call` takes from this key, which is also the simulation: eth_createAccessList's gasUsed
  // (the node runs the call once or twice) rather than eth_estimateGas (a search: anvil ran the call
  // about three times as long). The list is NOT attached to the tx (it costs more than it saves here);
  // gasUsed is the gas WITH the list, which can undercut the gas without it by at most 100 per listed
  // address (2,400 + 100 warm against 2,600 cold) and 200 per listed storage key (1,900 against a cold
  // SSTORE's 2,100 surcharge), so those are added back before the margin. A revert, an `error` field
  // (geth answers a revert that way) or a node without the method falls back to eth_estimateGas, whose
  // revert viem decodes; a node without it is asked once. It runs on the latest block: on the pending
  // one (the default) a burst of concurrent creates on an automining anvil went out in about twice as
  // many blocks (measured; probably anvil builds a pending block from its pool for each call). A call
  // only the pending state lets pass falls back to eth_estimateGas on the node's default block.
  let accessListGas: boolean | null = null;
  const estimateGas = (call: Call): Promise<bigint> => publicClient.estimateContractGas({ account, ...call });
  async function estimate(call: Call): Promise<bigint> {
    if (accessListGas !== false) {
      try {
        const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
        const r = (await publicClient.request(
          { method: "eth_createAccessList", params: [{ from: account.address, to: call.address, data }, "latest"] } as never,
          { retryCount: 0 },
        )) as { accessList?: { address: string; storageKeys?: string[] }[]; gasUsed?: Hex; error?: string };
        if (!r.error && r.gasUsed) {
          accessListGas = true;
          const list = r.accessList ?? [];
          const keys = list.reduce((n, e) => n + (e.storageKeys?.length ?? 0), 0);
          return BigInt(r.gasUsed) + 100n * BigInt(list.length) + 200n * BigInt(keys);
        }
      } catch (err) {
        if (isChainUnreachable(err)) throw err;
        if (METHOD_MISSING.test(errText(err)) || walkCode(err) === -32601) {
          accessListGas = false;
          logger.info("relayer: the node has no eth_createAccessList; gas comes from eth_estimateGas");
        }
      }
    }
    return estimateGas(call);
  }

  /**
   * Simulation and gas in one call; a revert comes back decoded. `gasAhead`: the estimate of this
   * very call started earlier (`estimate`, beside the caller's checks); if it failed, it is made again
   * here, so an error is always the call's own, read now.
   */
  async function prepare(call: Call, resync: boolean, gasAhead?: Promise<bigint>) {
    const req = { account, ...call };
    const fresh = () =>
      estimate(call).catch(async (err: unknown) => {
        if (decodedRevert(err) || isChainUnreachable(err)) throw err;
        await publicClient.simulateContract(req); // decodes what estimateGas did not
        throw err;
      });
    const [gas, hint, fee] = await Promise.all([
      gasAhead ? gasAhead.catch(fresh) : fresh(),
      // The chain's count only when the counter may be off (first send, or another sender used the key).
      resync ? publicClient.getTransactionCount({ address: account.address, blockTag: "pending" }).then(BigInt) : 0n,
      deps.currentFees().then((f) => (mark("p:fees"), f)),
    ]);
    mark("prepared");
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
    // Margin: state may change between the estimate and the mining (other txs in the same blocks).
    return { data, gas: (gas * 13n) / 10n + 10_000n, hint, fee };
  }

  /** A recorded tx of this request: make sure it is on its way again (same bytes). */
  async function resume(row: OutboxRow): Promise<OutboxRow> {
    if (row.status === "signed") await rawSend(row.raw).catch((err) => {
      if (isChainUnreachable(err)) throw err;
      logger.warn("relayer resume rebroadcast", { err: errText(err) });
    });
    return row;
  }

  /** Records and broadcasts a new transaction, or returns the recorded one of this request. */
  async function sendNew(call: Call, fn: string, ref: RequestRef | null, replaceId?: number, gasAhead?: Promise<bigint>): Promise<OutboxRow> {
    for (let attempt = 0; ; attempt++) {
      const resync = !reconciled || attempt > 0;
      const p = await prepare(call, resync, attempt === 0 ? gasAhead : undefined);
      const reconcile = !reconciled;
      const result = await deps.allocate({
        fn, ref, replaceId,
        sign: async (nonce) => {
          const raw = await deps.signTx({
            chainId, type: "eip1559", to: call.address, data: p.data, value: 0n, gas: p.gas, nonce: Number(nonce),
            maxFeePerGas: p.fee.maxFeePerGas, maxPriorityFeePerGas: p.fee.maxPriorityFeePerGas,
          });
          return { hash: keccak256(raw), raw };
        },
      }, p.hint, reconcile);
      reconciled = true;
      mark("allocated");
      if ("conflict" in result) return resume(result.conflict);
      const row = result.row;
      let outcome: Awaited<ReturnType<typeof rawSend>>;
      try {
        const sent = await broadcastTogether(row.raw, row.nonce);
        outcome = sent.outcome;
        mark("broadcast");
        if (sent.receipt) deps.onReceipt?.(sent.receipt);
      } catch (err) {
        if (isChainUnreachable(err)) throw err; // stays 'signed': the watchdog or a retry rebroadcasts it
        // Rejected outright (funds, gas...): the nonce is unused; a no-op fills it once a later tx waits.
        await outbox.markStatus(row.id, "failed").catch(() => {});
        throw err;
      }
      if (outcome === "nonce-taken") {
        // Another sender used this key's nonce (an operator script): re-sync from the chain, re-sign.
        await outbox.markStatus(row.id, "dropped").catch(() => {});
        replaceId = row.id;
        logger.warn("relayer nonce taken by another sender, re-syncing", { fn, nonce: row.nonce.toString(), attempt });
        if (attempt >= 4) throw new AppError("CHAIN_UNAVAILABLE", "Could not get a nonce for the relayer; try again");
        continue;
      }
      if (outcome === "fee-too-low") {
        // The base fee rose above the signed fee cap between the fee read and the broadcast, and this
        // node refuses such a tx where geth would queue it. Handled as geth's case: the tx stays
        // recorded and the receipt watcher replaces it (same nonce, fees read afresh, never above the
        // cap) after RELAYER_REPLACE_AFTER_BLOCKS, so no nonce is skipped.
        logger.warn("relayer tx refused: fee cap below the next base fee; it will be replaced", { fn, hash: row.hash, nonce: row.nonce.toString() });
      }
      if (deps.crashAfterBroadcast) {
        logger.error("RELAYER_CRASH_AFTER_BROADCAST: killing the process (test hook)", { hash: row.hash });
        process.kill(process.pid, "SIGKILL");
      }
      return row;
    }
  }

  return { rawSend, resume, sendNew, estimate };
}
