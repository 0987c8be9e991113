// Signs rating attestations as EAS delegated attestations with the EAS SDK (the attester key is the
// service's: the relayer, which the indexer accepts) and has the sponsor submit them through the
// relayer module (attestByDelegation), so the rater pays no gas.
// The SDK's ESM build does not load under Node (a named lodash import), so its CommonJS build is used.
// It and ethers load on first use: they are ~70,000 heap objects (21 MB) that every full garbage
// collection of a copy that never signs a rating would otherwise mark, on the core that serves requests.
import { createRequire } from "node:module";
import { type Account, type Address, type Hex, bytesToHex, pad, toHex, zeroHash } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { easAbi } from "../../../abis/index.ts";
import type { ChainContext, Relayer } from "../../lib/ports.ts";
import type { LocksRepository } from "../../repositories/locks.repository.ts";

const require = createRequire(import.meta.url);
type Sdk = typeof import("@ethereum-attestation-service/eas-sdk");
type Ethers = typeof import("ethers");
let sdkModule: Sdk | undefined;
let ethersModule: Ethers | undefined;
const sdk = (): Sdk => (sdkModule ??= require("@ethereum-attestation-service/eas-sdk") as Sdk);
// The SDK's own ethers (its signer type), resolved from the SDK's folder: the API declares no ethers of its own.
const ethers = (): Ethers =>
  (ethersModule ??= createRequire(require.resolve("@ethereum-attestation-service/eas-sdk"))("ethers") as Ethers);

export const RATING_SCHEMA = "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";

export interface RatingClaim {
  missionOnChainId: bigint;
  rater: Address;
  ratee: Address;
  score: number;
  /** What goes on-chain in the schema's `comment` field (a hash of the off-chain text). */
  comment: string;
  timestamp: bigint;
}

export const ratingMissionBytes32 = (onChainId: bigint): Hex => pad(toHex(onChainId), { size: 32 });

export function encodeRating(r: RatingClaim): Hex {
  return new (sdk().SchemaEncoder)(RATING_SCHEMA).encodeData([
    { name: "missionId", type: "bytes32", value: ratingMissionBytes32(r.missionOnChainId) },
    { name: "rater", type: "address", value: r.rater },
    { name: "ratee", type: "address", value: r.ratee },
    { name: "score", type: "uint8", value: r.score },
    { name: "comment", type: "string", value: r.comment },
    { name: "timestamp", type: "uint256", value: r.timestamp },
  ]) as Hex;
}

/** The attester's private key: an explicit key, or the HD key of a mnemonic account (anvil). */
export function accountPrivateKey(account: Account, explicit: Hex | undefined): Hex {
  if (explicit) return explicit;
  const hd = (account as { getHdKey?: () => { privateKey: Uint8Array | null } }).getHdKey?.();
  if (hd?.privateKey) return bytesToHex(hd.privateKey);
  throw new Error("the attester key is not available (set RELAYER_PRIVATE_KEY)");
}

export function ratingAttester(deps: {
  chain: ChainContext;
  attesterKey: Hex;
  sponsor: Relayer;
  /** EAS nonces are consumed in order (storage nonce), so sign + submit is serialised across copies. */
  locks: Pick<LocksRepository, "withLock">;
}) {
  const deployment = deps.chain.deployment!;
  const easAddress = deployment.contracts.EAS.address;
  const attesterAddress = privateKeyToAddress(deps.attesterKey);
  let signer: InstanceType<Ethers["Wallet"]> | null = null;
  const signerOf = () => (signer ??= new (ethers().Wallet)(deps.attesterKey));
  let delegated: import("@ethereum-attestation-service/eas-sdk").Delegated | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function getDelegated() {
    if (!delegated) {
      const version = (await deps.chain.publicClient.readContract({ address: easAddress, abi: easAbi, functionName: "version" })) as string;
      const { Delegated, EAS } = sdk();
      delegated = new Delegated({ address: easAddress, chainId: BigInt(deps.chain.chainId), version }, new EAS(easAddress));
    }
    return delegated;
  }

  async function attestLocked(r: RatingClaim) {
    const d = await getDelegated();
    const attester = attesterAddress;
    const nonce = (await deps.chain.publicClient.readContract({ address: easAddress, abi: easAbi, functionName: "getNonce", args: [attester] })) as bigint;
    const data = encodeRating(r);
    const request = {
      schema: deployment.ratingSchemaUid,
      recipient: r.ratee,
      expirationTime: 0n,
      revocable: false,
      refUID: zeroHash,
      data,
      value: 0n,
    };
    const deadline = 0n; // no expiry: it is submitted at once, by us
    const signed = await d.signDelegatedAttestation({ ...request, deadline, nonce }, signerOf());
    const sig = { v: signed.signature.v, r: signed.signature.r as Hex, s: signed.signature.s as Hex };
    const sent = await deps.sponsor.send(
      "attestByDelegation",
      [{ schema: request.schema, data: request, signature: sig, attester, deadline }],
      { address: easAddress, abi: easAbi },
    );
    const attested = sent.events.find((e) => e.eventName === "Attested");
    const uid = attested?.args.uid as Hex | undefined;
    if (!uid) throw new Error("attestByDelegation mined without an Attested event");
    // The 65-byte signature, r || s || v.
    const signature = `${sig.r}${sig.s.slice(2)}${sig.v.toString(16).padStart(2, "0")}` as Hex;
    return { uid, txHash: sent.hash, signature, attester, indexed: sent.indexed };
  }

  return {
    attester: attesterAddress,
    /** Signs and submits one rating; resolves once mined and indexed (bounded). */
    attest(r: RatingClaim) {
      const run = queue.then(() => deps.locks.withLock("ratingAttestation", () => attestLocked(r)));
      queue = run.catch(() => {});
      return run;
    },
  };
}
export type RatingAttester = ReturnType<typeof ratingAttester>;
