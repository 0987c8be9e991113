// Steps 5e and 5f of the rehearsal (script/rehearse.ts, test/e2e/rehearse.test.ts), over the REST
// API only, with brand-new wallets through the gasless set-up:
//   5e  a second mission disputed, evidence from both sides, a new resolver (RESOLVER_ROLE granted by
//       the deployer, the escrow's admin) takes and decides it, the appeal window passes on chain time,
//       the dispute is finalised, and every party's token balance moves by the exact base units the
//       rules of docs/decisions.md ("Money and fees", "Disputes") give, computed here independently;
//   5f  the poster rates the performer of the completed mission; the attestation is read back from the
//       canonical EAS address (schema, attester, recipient and the decoded fields), the schema from the
//       canonical SchemaRegistry, and the API's /ratings/:id/verify must say verified.
import { createHash } from "node:crypto";
import {
  createWalletClient, decodeAbiParameters, encodePacked, http, keccak256, pad, parseAbiParameters, toBytes, toHex, zeroAddress,
  type Address, type Hex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { easAbi, missionEscrowAbi, schemaRegistryAbi, testStablecoinAbi } from "../../abis/index.ts";
import { anvilRpc, newUser, rest, STAND_IN, type StandIn, type User } from "./rehearsal.ts";

type Call = ReturnType<typeof rest>;

/** The rating schema as the spec lists it (restated here, not imported from the API). */
const RATING_SCHEMA = "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";
/** SchemaRegistry's UID: keccak256(schema, resolver, revocable); no resolver, non-revocable. */
export const RATING_SCHEMA_UID = keccak256(encodePacked(["string", "address", "bool"], [RATING_SCHEMA, zeroAddress, false]));

const bps = (x: bigint, b: bigint) => (x * b) / 10_000n;
/**
 * A decided Split (no guild, no appeal): the performer's `pct` % of the reward settled as on approval
 * (protocol 2.5 % of that part, 20 % of which into the resolver pool, labs 1 %); the poster the rest;
 * the DDR (5 %, at least 1 USDC) back to the initiator; the resolver paid min(5 USDC, pool) from the
 * resolver pool, which this dispute's share has just funded (`poolBefore`: the pool before).
 */
export function splitPayout(reward: bigint, pct: number, poolBefore: bigint) {
  const part = (reward * BigInt(pct)) / 100n;
  const protocolShare = bps(part, 250n), labs = bps(part, 100n);
  const poolShare = bps(protocolShare, 2_000n);
  const pool = poolBefore + poolShare;
  const resolver = pool < 5_000_000n ? pool : 5_000_000n;
  const ddr = bps(reward, 500n) > 1_000_000n ? bps(reward, 500n) : 1_000_000n;
  return { poster: reward - part, performer: part - protocolShare - labs, protocol: protocolShare - poolShare, labs, resolver, ddr };
}

const balanceOf = (chain: StandIn, a: Address) =>
  chain.client.readContract({ address: STAND_IN.usdc, abi: testStablecoinAbi, functionName: "balanceOf", args: [a] });

async function uploadEvidence(apiUrl: string, disputeId: string, who: User, side: "poster" | "performer", text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  const form = new FormData();
  form.set("evidence", new Blob([bytes]), `${side}.txt`);
  form.set("type", side);
  const res = await fetch(`${apiUrl}/resolver/disputes/${disputeId}/evidence`, {
    method: "POST", body: form, headers: { Authorization: `Bearer ${who.token}` }, signal: AbortSignal.timeout(120_000),
  });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`evidence (${side}) -> ${res.status} ${body.slice(0, 300)}`);
  const sha = `0x${createHash("sha256").update(bytes).digest("hex")}`;
  if (JSON.parse(body).evidenceHash !== sha) throw new Error(`evidence (${side}): hash ${JSON.parse(body).evidenceHash}, expected ${sha}`);
}

export interface DisputeResult {
  disputeId: string;
  finalizedBy: "route" | "keeper";
  /** Balance change per party, in base units. */
  deltas: Record<string, bigint>;
}

/** 5e: a dispute from raising to finalisation, the payout checked on-chain to the base unit. */
export async function disputeToFinal(
  chain: StandIn, apiUrl: string, poster: User, performer: User, o: { reward?: bigint; split?: number } = {},
): Promise<DisputeResult> {
  const call = rest(apiUrl);
  const reward = o.reward ?? 12_345_678n; // odd, so every rounding rule shows
  const pct = o.split ?? 70;
  const escrow = chain.deployment.contracts.MissionEscrow.address;
  const read = (functionName: "protocolTreasury" | "labsTreasury" | "RESOLVER_ROLE") =>
    chain.client.readContract({ address: escrow, abi: missionEscrowAbi, functionName });
  const [protocolTreasury, labsTreasury, resolverRole] = [await read("protocolTreasury"), await read("labsTreasury"), await read("RESOLVER_ROLE")];
  // Side by side, as different people would: the mission up to Submitted, and a new resolver.
  const submitted = (async () => {
    const created = await call("POST", "/missions", {
      title: "Rehearsal: a disputed repair", description: "Mend a bicycle's flat tyre at the station.",
      rewardAmount: (Number(reward) / 1e6).toFixed(6), category: "repair", expiresIn: 24 * 3600,
      location: { latitude: 52.51, longitude: 13.39, radius: 150 },
    }, poster.token);
    const id = created.data.id as string;
    await call("POST", `/missions/${id}/accept`, undefined, performer.token);
    await call("POST", `/missions/${id}/submit`, { proofType: "text", proofData: "Tyre patched" }, performer.token);
    return id;
  })();
  // A new wallet through the gasless set-up; the escrow's admin (the deployer) makes it a resolver. The
  // API grants the role only by XP level (the relayer is no escrow admin here): the admin's own tx.
  const resolverReady = (async () => {
    const user = await newUser(call);
    const admin = createWalletClient({ account: chain.deployer, transport: http(chain.anvil.rpcUrl) });
    const grant = await admin.writeContract({ chain: null, address: escrow, abi: missionEscrowAbi, functionName: "grantRole", args: [resolverRole as Hex, user.account.address] });
    if ((await chain.client.waitForTransactionReceipt({ hash: grant, pollingInterval: 200, timeout: 60_000 })).status !== "success") throw new Error("grantRole reverted");
    return user;
  })();
  const [missionId, resolver] = await Promise.all([submitted, resolverReady]);

  const parties = { poster: poster.account.address, performer: performer.account.address, resolver: resolver.account.address, protocolTreasury, labsTreasury };
  const before = new Map<string, bigint>();
  for (const a of Object.values(parties)) before.set(a.toLowerCase(), await balanceOf(chain, a));
  const poolBefore = await chain.client.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "resolverPool" });
  const accrued = () => chain.client.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "accruedFees" });
  const feesBefore = await accrued();

  const raised = await call("POST", `/missions/${missionId}/dispute`, { reason: "The tyre is flat again an hour later.", evidence: "https://example.org/photo.jpg" }, poster.token);
  const id = raised.data.disputeId as string;
  const url = `/resolver/disputes/${id}`;
  await Promise.all([
    uploadEvidence(apiUrl, id, poster, "poster", "Flat again at 18:00; photo attached by link.\n"),
    uploadEvidence(apiUrl, id, performer, "performer", "The patch held when I left; the valve was loose.\n"),
  ]);
  const d0 = await call("GET", url);
  if (d0.state !== "Pending" || !d0.posterEvidenceHash || !d0.performerEvidenceHash) throw new Error(`after evidence: ${JSON.stringify(d0).slice(0, 300)}`);

  const taken = await call("POST", `${url}/take`, undefined, resolver.token);
  if (taken.dispute.state !== "Investigating" || taken.dispute.resolver?.evmAddress !== resolver.account.address.toLowerCase()) {
    throw new Error(`take: ${JSON.stringify(taken.dispute).slice(0, 300)}`);
  }
  const resolved = await call("POST", `${url}/resolve`, { outcome: "Split", splitPercentage: pct, resolution: "Both have a point: the patch and the valve." }, resolver.token);
  if (resolved.dispute.state !== "Resolved" || !resolved.dispute.appealDeadline) throw new Error(`resolve: ${JSON.stringify(resolved.dispute).slice(0, 300)}`);

  // The appeal window passes on chain time; then the finalize route (or the keeper, if it is first).
  const deadline = BigInt(Date.parse(resolved.dispute.appealDeadline) / 1000);
  const now = (await chain.client.getBlock()).timestamp;
  await anvilRpc(chain.client, "evm_increaseTime", [toHex(deadline - now + 1n)]);
  await anvilRpc(chain.client, "evm_mine", []);
  let finalizedBy: DisputeResult["finalizedBy"] = "route";
  try {
    await call("POST", `${url}/finalize`, undefined, performer.token);
  } catch (err) {
    if (!/ -> 409 /.test(String(err))) throw err;
    finalizedBy = "keeper";
  }
  let d = await call("GET", url);
  for (const t0 = Date.now(); d.state !== "Finalized" && Date.now() - t0 < 60_000; d = await call("GET", url)) await new Promise((r) => setTimeout(r, 500));
  if (d.state !== "Finalized" || d.outcome !== "Split" || d.splitPercentage !== pct || d.missionState !== "Completed") {
    throw new Error(`not finalised as decided: ${JSON.stringify(d).slice(0, 400)}`);
  }

  const p = splitPayout(reward, pct, poolBefore);
  const expected = new Map<string, bigint>([...before.keys()].map((k) => [k, 0n]));
  const add = (a: Address, v: bigint) => expected.set(a.toLowerCase(), expected.get(a.toLowerCase())! + v);
  add(parties.poster, p.poster); // the DDR was paid and refunded: no net change
  add(parties.performer, p.performer);
  add(parties.resolver, p.resolver);
  // The treasuries get nothing at the settlement: the protocol and labs fees accrue in the escrow until
  // someone calls withdrawFees (issue 40; docs/decisions.md "Payments").
  const feesAfter = await accrued();
  const protocolFeesAccrued = feesAfter[0] - feesBefore[0], labsFeesAccrued = feesAfter[1] - feesBefore[1];
  if (protocolFeesAccrued !== p.protocol || labsFeesAccrued !== p.labs) {
    throw new Error(`fees accrued ${protocolFeesAccrued} + ${labsFeesAccrued}, expected ${p.protocol} + ${p.labs}`);
  }
  // One entry per address (the two treasuries may be one address, as on this deploy).
  const names = new Map<string, string[]>();
  for (const [name, a] of Object.entries(parties)) names.set(a.toLowerCase(), [...(names.get(a.toLowerCase()) ?? []), name]);
  const deltas: Record<string, bigint> = { protocolFeesAccrued, labsFeesAccrued };
  for (const [a, who] of names) {
    const delta = (await balanceOf(chain, a as Address)) - before.get(a)!;
    deltas[who.join("=")] = delta;
    if (delta !== expected.get(a)) throw new Error(`${who.join("=")} ${a}: balance moved by ${delta}, expected ${expected.get(a)}`);
  }
  const units = (x: string) => BigInt(x.replace(".", ""));
  if (units(d.payout.posterAmount) !== p.poster + p.ddr || units(d.payout.performerAmount) !== p.performer || units(d.payout.resolverAmount) !== p.resolver) {
    throw new Error(`the API's payout ${JSON.stringify(d.payout)} differs from the chain's`);
  }
  return { disputeId: id, finalizedBy, deltas };
}

export interface RatingResult {
  ratingId: string;
  easUid: Hex;
}

/** 5f: the poster rates the performer of a completed mission; read back from the canonical EAS. */
export async function ratingReadBack(chain: StandIn, call: Call, poster: User, performer: User, missionId: string): Promise<RatingResult> {
  const comment = "On time, parcel intact.";
  const r = await call("POST", `/ratings/mission/${missionId}`, { score: 5, comment }, poster.token);
  const uid = r.easUid as Hex;
  if (!r.isOnChain || !/^0x[0-9a-f]{64}$/i.test(uid ?? "")) throw new Error(`rating not on chain: ${JSON.stringify(r).slice(0, 300)}`);
  if (chain.deployment.contracts.EAS.address.toLowerCase() !== STAND_IN.eas.toLowerCase()) throw new Error("the deployment's EAS is not the canonical one");
  if (chain.deployment.ratingSchemaUid.toLowerCase() !== RATING_SCHEMA_UID) throw new Error(`deployment schema ${chain.deployment.ratingSchemaUid}, expected ${RATING_SCHEMA_UID}`);
  const schema = await chain.client.readContract({ address: STAND_IN.schemaRegistry, abi: schemaRegistryAbi, functionName: "getSchema", args: [RATING_SCHEMA_UID] });
  if (schema.schema !== RATING_SCHEMA || schema.revocable) throw new Error(`the canonical SchemaRegistry holds ${JSON.stringify(schema)}`);

  const a = await chain.client.readContract({ address: STAND_IN.eas, abi: easAbi, functionName: "getAttestation", args: [uid] });
  const service = chain.relayerKeys.map((k) => privateKeyToAccount(k).address.toLowerCase());
  const mission = (await call("GET", `/missions/${missionId}`)).data;
  const [mid, rater, ratee, score, onChainComment] = decodeAbiParameters(parseAbiParameters(RATING_SCHEMA), a.data);
  const problems = [
    a.uid === uid || `uid ${a.uid}`,
    a.schema.toLowerCase() === RATING_SCHEMA_UID || `schema ${a.schema}`,
    service.includes(a.attester.toLowerCase()) || `attester ${a.attester} is not the relayer's key`,
    a.recipient.toLowerCase() === performer.account.address.toLowerCase() || `recipient ${a.recipient}`,
    (!a.revocable && a.revocationTime === 0n) || "revocable or revoked",
    mid === pad(toHex(BigInt(mission.onChainId)), { size: 32 }) || `missionId ${mid}`,
    rater.toLowerCase() === poster.account.address.toLowerCase() || `rater ${rater}`,
    ratee.toLowerCase() === performer.account.address.toLowerCase() || `ratee ${ratee}`,
    score === 5 || `score ${score}`,
    onChainComment === `keccak256:${keccak256(toBytes(comment)).slice(2)}` || `comment ${onChainComment} (the hash of the text, not the text)`,
  ].filter((x) => x !== true);
  if (problems.length) throw new Error(`attestation ${uid} at ${STAND_IN.eas}: ${problems.join("; ")}`);

  const v = await call("GET", `/ratings/${r.id}/verify`);
  const explorer = `${STAND_IN.easExplorer}/attestation/view/${uid}`;
  if (!v.verified || !v.isOnChain || v.easUid !== uid || v.attestation.schemaId.toLowerCase() !== RATING_SCHEMA_UID || v.explorerUrl !== explorer) {
    throw new Error(`/ratings/${r.id}/verify: ${JSON.stringify(v).slice(0, 400)}`);
  }
  return { ratingId: r.id as string, easUid: uid };
}
