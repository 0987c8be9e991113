// What the service needs a wallet to authorise before it can act for it (the operator approval in
// OperatorRegistry, the escrow's stablecoin allowance), read from the chain itself; the signatures that
// grant them, checked before anything is sent and then relayed (the relayer pays the gas). The chain
// is the truth for "done", and its nonces are the truth for "already used".
import { getAddress, maxUint256, parseSignature, type Abi, type Address, type Hex } from "viem";
import { errorsAbi, operatorRegistryAbi } from "../../../abis/index.ts";
import { stablecoinAbi } from "../../../domain/index.ts";
import type { ChainContext, Relayer, TxTarget } from "../../lib/ports.ts";
import { AppError, validationError } from "../../lib/errors.ts";
import { isChainUnreachable } from "../chain-errors.ts";
import {
  ALLOWANCE_STEP, OPERATOR_STEP, operatorTypedData, operatorTypedDataJson, permitTypedData, permitTypedDataJson,
  type Domain, type StepId,
} from "./typed-data.ts";

/** The allowance a permit grants: unlimited (OpenZeppelin's ERC20 never decrements it), see docs/decisions.md. */
export const PERMIT_VALUE = maxUint256;
/** How long a handed-out signature stays valid. */
export const SIGNATURE_TTL_SECONDS = 3600n;
/** A deadline closer than this to the chain's clock is refused: the relayed tx could land after it. */
const DEADLINE_MARGIN_SECONDS = 30n;

export interface SetupSignature {
  id: StepId;
  message: Record<string, unknown>;
  signature: Hex;
}
export interface SetupStep {
  id: StepId;
  done: boolean;
  typedData?: Record<string, unknown>;
}
/** What writes ask before relaying for a user (403 SETUP_REQUIRED when something is missing). */
export interface SetupGate {
  /**
   * 403 SETUP_REQUIRED unless `user` has authorised the operator and, when `allowance` is given, the
   * escrow may take that much. Resolves to the allowance it read (null when it read none), so a
   * funds check beside it need not read it again.
   */
  require(user: Address, allowance?: bigint): Promise<bigint | null>;
}

export function walletSetupService(deps: { chain: ChainContext; relayer: Relayer | null; operator: Address | null }) {
  const { chain } = deps;
  const pc = chain.publicClient;
  const read = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (isChainUnreachable(err)) throw new AppError("CHAIN_UNAVAILABLE", "The chain is unreachable; try again later");
      throw err;
    }
  };
  const ready = () => {
    if (!chain.deployment || !deps.relayer || !deps.operator) throw new AppError("CHAIN_UNAVAILABLE", "No contracts are deployed yet");
    const c = chain.deployment.contracts;
    return {
      relayer: deps.relayer, operator: deps.operator, escrow: c.MissionEscrow.address,
      registry: { address: c.OperatorRegistry.address, abi: [...operatorRegistryAbi, ...errorsAbi] as unknown as Abi } satisfies TxTarget,
    };
  };
  // The escrow's stablecoin (its token()), through the interface any such token has: a known
  // testnet's USDC is not the project's test token.
  const tokenAbi = [...stablecoinAbi, ...errorsAbi] as unknown as Abi;
  const tokenOf = async (): Promise<TxTarget> => ({ address: await read(() => chain.stablecoin()), abi: tokenAbi });
  const domains = new Map<Address, Promise<Domain>>();
  // ERC-5267: the contract states its own EIP-712 domain, so nothing here repeats a name or version.
  const domainOf = (t: TxTarget) => {
    let d = domains.get(t.address);
    if (!d) {
      d = read(() => pc.readContract({ address: t.address, abi: t.abi, functionName: "eip712Domain" })).then((r) => {
        const [, name, version, chainId, verifyingContract] = r as [Hex, string, string, bigint, Address];
        return { name, version, chainId: Number(chainId), verifyingContract };
      });
      d.catch(() => domains.delete(t.address));
      domains.set(t.address, d);
    }
    return d;
  };

  async function state(user: Address) {
    const { operator, escrow, registry } = ready();
    const token = await tokenOf();
    const call = (t: TxTarget, functionName: string, args: unknown[]) =>
      pc.readContract({ address: t.address, abi: t.abi, functionName, args }) as Promise<unknown>;
    const [authorized, operatorNonce, allowance, balance, permitNonce, code, block] = await read(() =>
      Promise.all([
        call(registry, "isAuthorized", [user, operator]) as Promise<boolean>,
        call(registry, "nonces", [user]) as Promise<bigint>,
        call(token, "allowance", [user, escrow]) as Promise<bigint>,
        call(token, "balanceOf", [user]) as Promise<bigint>,
        call(token, "nonces", [user]) as Promise<bigint>,
        pc.getCode({ address: user }),
        pc.getBlock(),
      ]),
    );
    return {
      operatorDone: authorized,
      // Covers everything the wallet holds (it can never commit more), and is never a zero allowance.
      allowanceDone: allowance > 0n && allowance >= balance,
      operatorNonce, permitNonce, allowance, balance,
      isContract: !!code && code !== "0x",
      now: block.timestamp,
    };
  }

  async function status(wallet: Address) {
    const { operator, escrow, registry } = ready();
    const token = await tokenOf();
    const user = getAddress(wallet); // checksummed, as wallets display it
    const s = await state(user);
    const deadline = s.now + SIGNATURE_TTL_SECONDS;
    const steps: SetupStep[] = [
      s.operatorDone
        ? { id: OPERATOR_STEP, done: true }
        : { id: OPERATOR_STEP, done: false, typedData: operatorTypedDataJson(await domainOf(registry), { user, operator, approved: true, nonce: s.operatorNonce, deadline }) },
      // OpenZeppelin's permit checks ECDSA only: a contract account approves the escrow with a call of its own.
      s.allowanceDone || s.isContract
        ? { id: ALLOWANCE_STEP, done: s.allowanceDone }
        : { id: ALLOWANCE_STEP, done: false, typedData: permitTypedDataJson(await domainOf(token), { owner: user, spender: escrow, value: PERMIT_VALUE, nonce: s.permitNonce, deadline }) },
    ];
    return { ready: steps.every((x) => x.done), steps };
  }

  const uint = (v: unknown, field: string): bigint => {
    if (typeof v === "string" && /^\d{1,78}$/.test(v) && BigInt(v) <= maxUint256) return BigInt(v);
    throw validationError([{ field, reason: "must be a uint256 as a decimal string" }]);
  };
  const address = (v: unknown, expected: Address, field: string, what: string): Address => {
    if (typeof v !== "string" || v.toLowerCase() !== expected.toLowerCase()) throw validationError([{ field, reason: `must be ${what} (${expected.toLowerCase()})` }]);
    return expected;
  };

  async function submit(user: Address, signatures: SetupSignature[]) {
    const { relayer, operator, escrow, registry } = ready();
    const token = await tokenOf();
    const ids = signatures.map((x) => x.id);
    if (new Set(ids).size !== ids.length) throw validationError([{ field: "body.signatures", reason: "one signature per step id" }]);
    const [s, registryDomain, tokenDomain] = await Promise.all([state(user), domainOf(registry), domainOf(token)]);
    const sends: { fn: string; args: unknown[]; target: TxTarget }[] = [];
    for (const [i, sig] of signatures.entries()) {
      const f = (k: string) => `body.signatures[${i}].message.${k}`;
      const m = sig.message;
      const deadline = uint(m.deadline, f("deadline"));
      const nonce = uint(m.nonce, f("nonce"));
      let valid: boolean;
      let done: boolean;
      let current: bigint;
      let short: AppError | null = null;
      if (sig.id === OPERATOR_STEP) {
        if (m.approved !== true) throw validationError([{ field: f("approved"), reason: "must be true (DELETE /wallet/setup revokes)" }]);
        const message = { user: address(m.user, user, f("user"), "the signed-in wallet"), operator: address(m.operator, operator, f("operator"), "the service's operator"), approved: true, nonce, deadline };
        valid = await read(() => pc.verifyTypedData({ address: user, signature: sig.signature, ...operatorTypedData(registryDomain, message) }));
        [done, current] = [s.operatorDone, s.operatorNonce];
        sends.push({ fn: "setOperatorWithSig", args: [user, operator, true, deadline, sig.signature], target: registry });
      } else {
        if (s.isContract) throw validationError([{ field: `body.signatures[${i}].id`, reason: "a contract account cannot sign this token's permit: approve the escrow with a call from the account" }]);
        const value = uint(m.value, f("value"));
        if (value === 0n) throw validationError([{ field: f("value"), reason: "must be above 0" }]);
        const message = { owner: address(m.owner, user, f("owner"), "the signed-in wallet"), spender: address(m.spender, escrow, f("spender"), "the escrow"), value, nonce, deadline };
        valid = await read(() => pc.verifyTypedData({ address: user, signature: sig.signature, ...permitTypedData(tokenDomain, message) }));
        [done, current] = [s.allowanceDone, s.permitNonce];
        // A smaller allowance leaves the step not done, so it could be relayed again and again.
        if (value < s.balance) short = validationError([{ field: f("value"), reason: `must cover the wallet's balance (${s.balance} base units): a smaller allowance does not complete set-up` }]);
        const { r, s: sPart, v, yParity } = parseSignature(sig.signature);
        sends.push({ fn: "permit", args: [user, escrow, value, deadline, Number(v ?? BigInt(yParity + 27)), r, sPart], target: token });
      }
      if (!valid) throw new AppError("INVALID_SIGNATURE", `The ${sig.id} signature is not the signed-in wallet's over this message on chain ${chain.chainId}`);
      // A step already done is skipped; a request where every step is done is refused below.
      if (done) {
        sends.pop();
        continue;
      }
      if (short) throw short;
      if (nonce < current) throw new AppError("SIGNATURE_REPLAYED", `The ${sig.id} signature was already used (nonce ${nonce}, now ${current}): GET /wallet/setup for a fresh one`);
      if (nonce > current) throw validationError([{ field: f("nonce"), reason: `must be the current nonce ${current}` }]);
      if (deadline < s.now + DEADLINE_MARGIN_SECONDS) throw new AppError("SIGNATURE_EXPIRED", `The ${sig.id} signature's deadline has passed (or is under ${DEADLINE_MARGIN_SECONDS} s away): GET /wallet/setup for a fresh one`);
    }
    if (!sends.length) {
      throw new AppError("INVALID_STATE", "Nothing to set up: every signed step is already done for this wallet (GET /wallet/setup)");
    }
    const transactionHashes: Hex[] = [];
    for (const x of sends) transactionHashes.push((await relayer.send(x.fn, x.args, x.target)).hash);
    return { ready: (await status(user)).ready, transactionHashes };
  }

  return {
    status,
    submit,
    /** The operator gives up its approval (OperatorRegistry.renounceOperator): no signature needed. */
    async revoke(user: Address) {
      const { relayer, registry, operator } = ready();
      const isOperator = await read(() => pc.readContract({ address: registry.address, abi: registry.abi, functionName: "isOperator", args: [user, operator] })) as boolean;
      const transactionHashes: Hex[] = isOperator ? [(await relayer.send("renounceOperator", [user], registry)).hash] : [];
      return { ready: (await status(user)).ready, transactionHashes };
    },
    gate: {
      async require(user: Address, allowance = 0n) {
        if (!chain.deployment || !deps.operator) return null;
        const { operator, escrow, registry } = ready();
        const token = allowance > 0n ? await tokenOf() : null;
        const [authorized, granted] = await read(() =>
          Promise.all([
            pc.readContract({ address: registry.address, abi: registry.abi, functionName: "isAuthorized", args: [user, operator] }) as Promise<boolean>,
            token ? (pc.readContract({ address: token.address, abi: token.abi, functionName: "allowance", args: [user, escrow] }) as Promise<bigint>) : Promise.resolve(0n),
          ]),
        );
        const missing = [...(authorized ? [] : [OPERATOR_STEP]), ...(granted >= allowance ? [] : [ALLOWANCE_STEP])];
        if (missing.length) {
          throw new AppError("SETUP_REQUIRED", `This wallet has not authorised the service to act for it (missing: ${missing.join(", ")}): GET /wallet/setup, sign the steps and POST /wallet/setup`);
        }
        return token ? granted : null;
      },
    } satisfies SetupGate,
  };
}
export type WalletSetupService = ReturnType<typeof walletSetupService>;
