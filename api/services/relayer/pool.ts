// The relayer key pool (docs/decisions.md "Relayer key pool (executor)"): one key relayer per
// RELAYER_PRIVATE_KEYS entry, behind the one `Relayer` port. A call the executor's allowlist names
// (target, selector: read from the executor, once per pair) goes as `executor.execute(target, data)`
// from the least-busy funded key: users approved the executor, so any key may act for them. Any other
// call (role-gated: mint, grantRole, decideAppeal, setBuilderScore; signature-authorised set-up) goes
// directly from key 0, the primary, which holds the roles. Without an executor (older deployment
// files) every call goes directly from the primary, as a one-key relayer did.
import { encodeFunctionData, type Abi, type Address } from "viem";
import { errorsAbi, missionEscrowAbi, relayerExecutorAbi } from "../../../abis/index.ts";
import { AppError } from "../../lib/errors.ts";
import { mark } from "../../lib/stage-trace.ts";
import type { KeyBalance, Relayer, SendAhead, SentTx, TxTarget } from "../../lib/ports.ts";
import type { OutboxRow } from "../../repositories/outbox-rows.ts";
import { isChainUnreachable } from "../chain-errors.ts";
import { budgetWallet, type RelayBudget, type Reservation } from "./budget.ts";
import { errText, escrowCallAbi, lookAheadRequestRef, nextRequestRef, takeLookAhead } from "./common.ts";
import { createKeyRelayer, type KeyDeps, type KeyRelayer } from "./key.ts";
import type { Call } from "./send.ts";

// Every custom error of the project, so that a revert on any target is decoded into an API code.
const withErrorsCache = new WeakMap<Abi, Abi>();
function withErrors(abi: Abi): Abi {
  let out = withErrorsCache.get(abi);
  if (!out) withErrorsCache.set(abi, (out = [...abi, ...errorsAbi]));
  return out;
}
// execute() plus the target's errors: the executor re-raises a target's revert unchanged, so the
// existing mapping (Unauthorized -> FORBIDDEN, ...) decodes it; the executor's own errors too.
const viaExecutorCache = new WeakMap<Abi, Abi>();
function viaExecutorAbi(targetAbi: Abi): Abi {
  let out = viaExecutorCache.get(targetAbi);
  if (!out) viaExecutorCache.set(targetAbi, (out = [...relayerExecutorAbi, ...targetAbi.filter((x) => x.type === "error")]));
  return out;
}

export interface PoolDeps extends Omit<KeyDeps, "account" | "outbox"> {
  /** Key 0 is the primary (the deployment's relayer: roles, EAS attester); each with its outbox rows. */
  keys: Pick<KeyDeps, "account" | "outbox">[];
  escrow: Address;
  /** The deployment's RelayerExecutor, or null: every call direct from the primary. */
  executor: Address | null;
  /** Each wallet's hourly budget, charged for new sends made on its behalf (budget.ts); none: unlimited. */
  budget?: RelayBudget;
}

export function createRelayerPool(deps: PoolDeps): Relayer {
  if (!deps.keys.length) throw new Error("the relayer pool needs at least one key");
  const keys: KeyRelayer[] = deps.keys.map((key) => createKeyRelayer({ ...deps, ...key }));
  const primary = keys[0]!;
  const byAddress = new Map(keys.map((k) => [k.address.toLowerCase(), k]));
  const { executor, publicClient, logger, metrics } = deps;
  let turn = 0;

  // The allowlist as the executor has it; a failed read is not remembered.
  const allowed = new Map<string, Promise<boolean>>();
  function isAllowed(target: Address, selector: string): Promise<boolean> {
    const id = `${target.toLowerCase()}:${selector}`;
    let p = allowed.get(id);
    if (!p) {
      p = publicClient.readContract({ address: executor!, abi: relayerExecutorAbi, functionName: "isAllowed", args: [target, selector as `0x${string}`] });
      p.catch(() => allowed.delete(id));
      allowed.set(id, p);
    }
    return p;
  }

  /** The key `pick()` would choose now, without taking a turn (the key a look-ahead estimates from). */
  function likelyKey(): KeyRelayer {
    const funded = keys.filter((k) => !k.balance.current().empty);
    if (funded.length <= 1) return funded[0] ?? primary;
    const start = turn % funded.length;
    let best = funded[start]!;
    for (let i = 1; i < funded.length; i++) {
      const k = funded[(start + i) % funded.length]!;
      if (k.inFlight() < best.inFlight()) best = k;
    }
    return best;
  }

  /** A call as the executor forwards it, or as it is (direct from the primary). */
  async function route(call: Call): Promise<{ routed: Call; forward: boolean }> {
    const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
    const forward = executor !== null && (await isAllowed(call.address, data.slice(0, 10)));
    return { routed: forward ? { address: executor, abi: viaExecutorAbi(call.abi), functionName: "execute", args: [call.address, data] } : call, forward };
  }

  // What lookAhead started, by the token handed to the caller: the estimate (the key, the routed
  // call's target and calldata, the gas: a send uses it only for the same key, target and data) and
  // the budget's charge (null: none due, the send resumes a recorded tx or is nobody's), taken once.
  type Ahead = { key: KeyRelayer; address: Address; data: string; gas: Promise<bigint> };
  const aheads = new WeakMap<SendAhead, { estimate: Promise<Ahead>; charge: Promise<Reservation | null>; taken: boolean }>();
  const isLive = (row: OutboxRow | null) => !!row && row.status !== "failed" && row.status !== "dropped";
  /** The look-ahead's budget charge, once (null when there is none or it was taken). */
  async function takeCharge(ahead: SendAhead | undefined): Promise<Reservation | null> {
    const a = ahead ? aheads.get(ahead) : undefined;
    if (!a || a.taken) return null;
    a.taken = true;
    return a.charge.catch(() => null);
  }
  const calldata = (c: Call) => encodeFunctionData({ abi: c.abi, functionName: c.functionName, args: c.args });

  /** The funded key with the fewest sends in flight (ties in turn); RELAYER_UNFUNDED when none is. */
  async function pick(): Promise<KeyRelayer> {
    if (keys.length === 1) return primary; // the key's own check answers RELAYER_UNFUNDED naming it
    let funded = keys.filter((k) => !k.balance.current().empty);
    if (!funded.length) {
      await Promise.all(keys.map((k) => k.balance.refresh()));
      funded = keys.filter((k) => !k.balance.current().empty);
    }
    if (!funded.length) {
      throw new AppError("RELAYER_UNFUNDED", `No relayer key has ETH left for gas (${keys.map((k) => k.address).join(", ")}); try again once one is refunded`, undefined, { "Retry-After": "60" });
    }
    const start = turn++ % funded.length;
    let best = funded[start]!;
    for (let i = 1; i < funded.length; i++) {
      const k = funded[(start + i) % funded.length]!;
      if (k.inFlight() < best.inFlight()) best = k;
    }
    return best;
  }

  async function send(call: Call, eventsAbi: Abi, ahead?: SendAhead): Promise<SentTx> {
    const fn = call.functionName;
    const ref = nextRequestRef();
    let key: KeyRelayer;
    let routed: Call;
    let recorded: OutboxRow | null;
    let gasAhead: Promise<bigint> | undefined;
    try {
      recorded = ref ? await ((takeLookAhead(ref.seq) as Promise<OutboxRow | null> | undefined) ?? primary.findForRequest(ref)) : null;
      let forward: boolean;
      ({ routed, forward } = await route(call));
      const live = isLive(recorded) ? recorded : null;
      if (live) {
        // A retry of a request whose tx is recorded: resume on the key that signed it.
        const signer = byAddress.get(live.address.toLowerCase());
        if (!signer) {
          throw new AppError("CHAIN_UNAVAILABLE", `This request's transaction ${live.hash} was signed by relayer key ${live.address}, which is no longer configured; add it back to RELAYER_PRIVATE_KEYS until it settles`);
        }
        key = signer;
      } else {
        // A resumed send was charged when it was first made. The look-ahead's charge when there is one.
        const wallet = deps.budget ? budgetWallet() : null;
        const charged = await takeCharge(ahead);
        if (charged) await charged.take();
        else if (wallet) await deps.budget!.charge(wallet);
        key = forward ? await pick() : primary;
        const early = ahead ? await aheads.get(ahead)?.estimate.catch(() => undefined) : undefined;
        if (early && early.key === key && early.address === routed.address && early.data === calldata(routed)) gasAhead = early.gas;
      }
    } catch (err) {
      metrics.relayerTxs.inc({ fn, result: "rejected" });
      // Refused before the charge was taken (lookup, routing): it is taken back, as it was never made.
      await (await takeCharge(ahead))?.refund().catch(() => {});
      if (err instanceof AppError) throw err;
      if (isChainUnreachable(err)) throw new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
      logger.error("relayer routing failure", { fn, err: errText(err) });
      throw new AppError("INTERNAL_ERROR", "Internal server error");
    }
    mark("routed");
    return key.send(routed, eventsAbi, fn, ref, recorded, gasAhead);
  }

  // Which keys may forward: a key without RELAYER_ROLE on the executor would see every forward refused.
  if (executor) {
    void (async () => {
      const role = await publicClient.readContract({ address: executor, abi: relayerExecutorAbi, functionName: "RELAYER_ROLE" });
      for (const k of keys) {
        const ok = await publicClient.readContract({ address: executor, abi: relayerExecutorAbi, functionName: "hasRole", args: [role, k.address] });
        if (!ok) logger.warn("a relayer key lacks RELAYER_ROLE on the executor: its forwards will be refused", { key: k.address, executor });
      }
    })().catch((err: unknown) => logger.warn("could not check the relayer keys' RELAYER_ROLE", { err: errText(err) }));
  }

  return {
    address: primary.address,
    lookAhead(functionName?: string, args?: unknown) {
      const found = lookAheadRequestRef((ref) => primary.findForRequest(ref)) as Promise<OutboxRow | null>;
      if (functionName === undefined || !Array.isArray(args)) return undefined;
      const token: SendAhead = { sendAhead: true };
      const estimate = route({ address: deps.escrow, abi: escrowCallAbi, functionName, args }).then(({ routed, forward }) => {
        const key = forward ? likelyKey() : primary;
        return { key, address: routed.address, data: calldata(routed), gas: key.estimateAhead(routed) };
      });
      estimate.catch(() => {}); // a failed look-ahead only means the send estimates itself
      // The budget is charged as the send would (not for a recorded tx it will resume), beside the
      // caller's checks; a refused caller releases it. A failed lookup: the send charges itself.
      const wallet = deps.budget ? budgetWallet() : null;
      const charge = wallet ? found.then((row) => (isLive(row) ? null : deps.budget!.reserve(wallet))) : Promise.resolve(null);
      charge.catch(() => {});
      aheads.set(token, { estimate, charge, taken: false });
      return token;
    },
    async release(ahead: SendAhead) {
      await (await takeCharge(ahead))?.refund();
    },
    simulated(ahead: SendAhead) {
      const a = aheads.get(ahead);
      return a ? a.estimate.then((e) => e.gas).then(() => true, () => false) : Promise.resolve(false);
    },
    async balances(refresh = false) {
      if (!refresh) return keys.map((k) => k.balance.current());
      // A probe must answer even while the chain does not: after 1 s, the last balance read.
      return Promise.all(keys.map((k) => {
        const stale = new Promise<KeyBalance>((r) => setTimeout(() => r(k.balance.current()), 1_000).unref());
        return Promise.race([k.balance.refresh(), stale]);
      }));
    },
    // The port types `args` by the ABI; here one path serves every ABI, so they are checked as a list.
    send(functionName: string, args: unknown, target?: TxTarget, ahead?: SendAhead) {
      if (!Array.isArray(args)) throw new TypeError(`relayer.send(${functionName}): args must be a list`);
      if (!target) return send({ address: deps.escrow, abi: escrowCallAbi, functionName, args }, missionEscrowAbi, ahead);
      return send({ address: target.address, abi: withErrors(target.abi), functionName, args }, target.abi);
    },
  };
}
