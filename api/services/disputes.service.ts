// Disputes over the API: reads from the indexer's views, evidence storage, and the
// lifecycle actions relayed to MissionEscrow. Role rules are checked first (clear errors, no
// gas); the chain's own checks back them up (reverts mapped in chain-errors.ts).
import { isAddress, type Address, type Hex } from "viem";
import type { z } from "zod";
import { missionEscrowAbi } from "../../abis/index.ts";
import { DISPUTE_OUTCOME_CODE, levelRequiredFor } from "../../domain/index.ts";
import { hashCanonical } from "../lib/canonical-json.ts";
import { AppError } from "../lib/errors.ts";
import type { DisputeFilter, DisputeRole, DisputeRow, DisputesRepository } from "../repositories/disputes.repository.ts";
import type { LocksRepository } from "../repositories/locks.repository.ts";
import type { UserRow } from "../repositories/users.repository.ts";
import type { DecisionBody, ListQuery, SIDES } from "../routes/disputes/disputes.schemas.ts";
import { detailView, disputeParties, statsView, summaryView } from "./dispute-view.ts";
import { EVIDENCE_MAX_BYTES, evidenceHash, sniffEvidenceType, type EvidenceStore } from "./evidence-store.ts";
import { eq, missionContext, salt, type MissionDeps } from "./mission-context.ts";

export type Side = (typeof SIDES)[number];
/** A resolver's or appeals resolver's decision, as the route's body schema validates it. */
export type Decision = z.infer<typeof DecisionBody>;
export type DisputeListQuery = z.infer<typeof ListQuery>;
/** A decided outcome as the escrow's `Disputes.Outcome` (its index in DISPUTE_OUTCOMES). */
const OUTCOME_CODE = DISPUTE_OUTCOME_CODE;
/** Level of the spec's "Mid Game" phase: resolver eligibility (the unlock table's `resolving`). */
export const RESOLVER_MIN_LEVEL = levelRequiredFor("resolving");

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function disputesService(deps: MissionDeps & { repo: DisputesRepository; store: EvidenceStore; locks: Pick<LocksRepository, "tryKeyed"> }) {
  const { repo, store } = deps;
  const ctx = missionContext(deps);
  const { ready, read, assertFunds, requireSetup } = ctx;

  const mustFind = async (id: string): Promise<DisputeRow> => {
    const row = UUID_RE.test(id) ? await repo.findById(id.toLowerCase()) : null;
    if (!row) throw new AppError("DISPUTE_NOT_FOUND", `Dispute ${id} not found`);
    return row;
  };
  const sideOf = (row: DisputeRow, address: string): Side | null =>
    eq(row.poster, address) ? "poster" : eq(row.performer, address) ? "performer" : null;
  const requireState = (row: DisputeRow, ...states: string[]) => {
    if (!states.includes(row.state)) {
      throw new AppError("INVALID_DISPUTE_STATE", `The dispute is ${row.state}, not ${states.join(" or ")}`);
    }
  };
  const hasRole = async (role: "RESOLVER_ROLE" | "APPEALS_ROLE", account: string) => {
    const { escrow } = ready();
    const pc = deps.chain.publicClient;
    return read(async () => {
      const id = (await pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: role })) as Hex;
      return (await pc.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "hasRole", args: [id, account as Address] })) as boolean;
    });
  };
  /** userId: an API user's UUID, or a lowercase address (users without an API account). */
  const addressOf = async (userId: string): Promise<string> => {
    if (isAddress(userId, { strict: false })) return userId.toLowerCase();
    const user = UUID_RE.test(userId) ? await deps.users.findById(userId.toLowerCase()) : null;
    if (!user) throw new AppError("NOT_FOUND", `User ${userId} not found`);
    return user.evmAddress;
  };
  const decisionArgs = (d: Decision, author: UserRow, onChainId: string) => {
    if (d.outcome === "Split" ? d.splitPercentage === undefined : d.splitPercentage !== undefined) {
      throw new AppError("VALIDATION_ERROR", "splitPercentage is required with Split and only with Split", [
        { field: "body.splitPercentage", reason: "required (1..99) when outcome is Split, absent otherwise" },
      ]);
    }
    const s = salt();
    const resolutionHash = hashCanonical({ resolution: d.resolution, salt: s });
    return {
      resolutionHash,
      record: { resolutionHash, disputeOnChainId: onChainId, resolution: d.resolution, salt: s, authorId: author.id },
      args: [BigInt(onChainId), OUTCOME_CODE[d.outcome], d.splitPercentage ?? 0, resolutionHash] as const,
    };
  };
  const removeFiles = async (hashes: string[]) => {
    for (const h of hashes) await store.delete(h);
  };
  /** Summaries for `viewer` (an address, or null when signed out): one privacy lookup for all the names. */
  const summaries = async (rows: DisputeRow[], viewer: string | null) => {
    const lens = await deps.privacy.lens(viewer, disputeParties(rows));
    return { disputes: rows.map((r) => summaryView(r, lens)) };
  };
  const detail = async (row: DisputeRow, viewer: string | null) => detailView(row, await deps.privacy.lens(viewer, disputeParties([row])));
  const after = async (id: string, hash: Hex, viewer: string | null) => ({ success: true, transactionHash: hash, dispute: await detail((await repo.findById(id))!, viewer) });

  return {
    async list(filter: DisputeListQuery, viewer: UserRow | null) {
      if (filter.role && !viewer) throw new AppError("UNAUTHORIZED", "role is relative to the signed-in user: send a bearer token");
      const f: DisputeFilter = { state: filter.state, outcome: filter.outcome, role: filter.role, account: filter.role ? viewer!.evmAddress : undefined };
      return summaries(await repo.find(f), viewer?.evmAddress ?? null);
    },
    async get(id: string, viewer: string | null = null) {
      return detail(await mustFind(id), viewer);
    },
    async byMission(missionId: string, viewer: string | null = null) {
      return summaries(await repo.find({ missionId: missionId.toLowerCase() }), viewer);
    },
    async byUser(userId: string, role?: DisputeRole, viewer: string | null = null) {
      const account = await addressOf(userId);
      return summaries(await repo.find({ account, role }), viewer);
    },
    async queue(viewer: string | null = null) {
      return summaries(await repo.find({ state: "Pending" }), viewer);
    },
    async resolverQueue(resolverId: string, viewer: string | null = null) {
      const resolver = await addressOf(resolverId);
      return summaries(await repo.find({ resolver, state: "Investigating" }), viewer);
    },
    async stats(userId: string) {
      return statsView(await repo.stats(await addressOf(userId)));
    },

    async uploadEvidence(user: UserRow, id: string, side: Side, bytes: Uint8Array) {
      const { relayer } = ready();
      const found = await mustFind(id);
      if (sideOf(found, user.evmAddress) !== side) {
        throw new AppError("NOT_PARTY", `Only the ${side} of this dispute may upload ${side} evidence`);
      }
      requireState(found, "Pending", "Investigating");
      if (bytes.length > EVIDENCE_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", `Evidence exceeds ${EVIDENCE_MAX_BYTES} bytes`);
      const mimeType = sniffEvidenceType(bytes);
      if (!mimeType) throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Evidence must be PNG, JPEG, PDF, plain text or JSON");
      const hash = evidenceHash(bytes);
      // One upload per side at a time (any API copy): the files a success removes are then never
      // those of a transaction still on its way.
      const done = await deps.locks.tryKeyed(`evidence:${found.onChainId}:${side}`, async () => {
        const row = await mustFind(id);
        requireState(row, "Pending", "Investigating");
        const current = side === "poster" ? row.posterEvidenceHash : row.performerEvidenceHash;
        if (current?.toLowerCase() === hash) {
          throw new AppError("INVALID_STATE", `This file already is the ${side}'s current evidence: nothing to record`);
        }
        await requireSetup(user.evmAddress);
        await store.put(hash, bytes); // stored before the chain commits to it: a recorded hash always has its file
        await repo.insertEvidence({ disputeOnChainId: row.onChainId.toString(), side, evidenceHash: hash, mimeType, sizeBytes: bytes.length, uploadedBy: user.id });
        let tx;
        try {
          tx = await relayer.send("submitEvidence", [row.onChainId, user.evmAddress as Address, hash as Hex]);
        } catch (err) {
          // A refusal (4xx) means the chain never took this hash; after a 5xx it may still, so it stays.
          if (err instanceof AppError && err.status < 500) await removeFiles(await repo.dropEvidence(row.onChainId.toString(), side, { drop: hash }));
          throw err;
        }
        // The side's earlier files: superseded on-chain, kept only while another dispute side uses them.
        await removeFiles(await repo.dropEvidence(row.onChainId.toString(), side, { keep: hash }));
        return tx;
      });
      if (!done) throw new AppError("INVALID_STATE", `Another ${side} evidence upload for this dispute is in progress: try again when it is done`);
      return { success: true, evidenceHash: hash, message: `Evidence recorded on-chain in ${done.result.hash}` };
    },
    async readEvidence(user: UserRow, id: string, side: Side) {
      const row = await mustFind(id);
      if (!sideOf(row, user.evmAddress) && !eq(row.resolver, user.evmAddress) && !(await hasRole("APPEALS_ROLE", user.evmAddress))) {
        throw new AppError("FORBIDDEN", "Only the parties, the assigned resolver and appeals resolvers may read evidence");
      }
      const hash = side === "poster" ? row.posterEvidenceHash : row.performerEvidenceHash;
      if (!hash) throw new AppError("NOT_FOUND", `No ${side} evidence recorded`);
      const meta = await repo.findEvidence(row.onChainId.toString(), side, hash.toLowerCase());
      const body = meta ? await store.get(meta.evidenceHash) : null;
      if (!meta || !body) throw new AppError("NOT_FOUND", `The ${side} evidence file is not stored by this service`);
      return { body, mimeType: meta.mimeType, size: meta.sizeBytes, hash: meta.evidenceHash };
    },

    async take(user: UserRow, id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      requireState(row, "Pending");
      if (sideOf(row, user.evmAddress)) throw new AppError("NOT_RESOLVER", "A party may not resolve its own dispute");
      await requireSetup(user.evmAddress);
      if (!(await hasRole("RESOLVER_ROLE", user.evmAddress))) {
        // The resolver-grants reactor grants the role on reaching the level; this covers the time
        // before it has acted (it follows the journal) for a user who takes a dispute at once.
        if ((await repo.userLevel(user.evmAddress)) < RESOLVER_MIN_LEVEL) {
          throw new AppError("NOT_RESOLVER", `Resolvers need RESOLVER_ROLE (granted at level ${RESOLVER_MIN_LEVEL})`);
        }
        const roleId = await read(() => deps.chain.publicClient.readContract({ address: ready().escrow, abi: missionEscrowAbi, functionName: "RESOLVER_ROLE" }));
        await relayer.send("grantRole", [roleId, user.evmAddress as Address]);
      }
      const tx = await relayer.send("takeDispute", [row.onChainId, user.evmAddress as Address]);
      return after(row.id, tx.hash, user.evmAddress);
    },
    async resolve(user: UserRow, id: string, d: Decision) {
      const { relayer } = ready();
      const row = await mustFind(id);
      if (!eq(row.resolver, user.evmAddress)) throw new AppError("NOT_RESOLVER", "Only the assigned resolver may resolve");
      requireState(row, "Investigating");
      await requireSetup(user.evmAddress);
      const { record, args } = decisionArgs(d, user, row.onChainId.toString());
      await repo.insertResolution(record);
      const tx = await relayer.send("resolveDispute", args);
      return after(row.id, tx.hash, user.evmAddress);
    },
    async appeal(user: UserRow, id: string) {
      const { relayer, escrow } = ready();
      const row = await mustFind(id);
      if (!sideOf(row, user.evmAddress)) throw new AppError("NOT_PARTY", "Only the poster or the performer may appeal");
      requireState(row, "Resolved");
      const lpp = (await read(() =>
        deps.chain.publicClient.readContract({ address: escrow, abi: missionEscrowAbi, functionName: "reserveFor", args: [row.reward] }),
      )) as bigint;
      await requireSetup(user.evmAddress, lpp);
      await assertFunds(user.evmAddress as Address, lpp);
      const tx = await relayer.send("appealDispute", [row.onChainId, user.evmAddress as Address]);
      return after(row.id, tx.hash, user.evmAddress);
    },
    async decideAppeal(user: UserRow, id: string, d: Decision) {
      const { relayer } = ready();
      const row = await mustFind(id);
      // The contract checks the relayer (msg.sender) holds APPEALS_ROLE; the API checks the user does.
      if (!(await hasRole("APPEALS_ROLE", user.evmAddress))) throw new AppError("NOT_APPEALS_RESOLVER", "APPEALS_ROLE is required");
      if (sideOf(row, user.evmAddress) || eq(row.resolver, user.evmAddress)) {
        throw new AppError("NOT_APPEALS_RESOLVER", "A party or the first resolver may not decide the appeal");
      }
      requireState(row, "Appealed");
      const { record, args } = decisionArgs(d, user, row.onChainId.toString());
      await repo.insertResolution(record);
      const tx = await relayer.send("decideAppeal", args);
      return after(row.id, tx.hash, user.evmAddress);
    },
    async finalize(id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      requireState(row, "Pending", "Investigating", "Resolved", "Appealed");
      const tx = await relayer.send("finalizeDispute", [row.onChainId]);
      return after(row.id, tx.hash, null);
    },
    async release(id: string) {
      const { relayer } = ready();
      const row = await mustFind(id);
      requireState(row, "Investigating");
      const tx = await relayer.send("releaseDispute", [row.onChainId]);
      return after(row.id, tx.hash, null);
    },
  };
}
export type DisputesService = ReturnType<typeof disputesService>;
