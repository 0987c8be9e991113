// Governance: level-16 users propose and vote; each vote is the voter's EIP-712 signature, kept with
// the vote so that anyone can verify it. Proposals are signals the admin acts on, not executed on chain.
import { type Hex, recoverTypedDataAddress } from "viem";
import type { z } from "zod";
import { hasUnlock, levelRequiredFor } from "../../../domain/unlocks.ts";
import { AppError, validationError } from "../../lib/errors.ts";
import type { GovernanceRepository, ProposalRow, VoteRow } from "../../repositories/governance.repository.ts";
import type { UserRow } from "../../repositories/users.repository.ts";
import { MAX_PROPOSAL_DAYS, type ProposalBody, type VoteBody } from "../../routes/governance/governance.schemas.ts";
import { governanceTypedData } from "./eip712.ts";

/** The body of POST /governance/proposals, as the route's schema validates it. */
export type NewProposal = z.infer<typeof ProposalBody>;

export function governanceService(deps: {
  repo: GovernanceRepository;
  /** The indexed level of an address (1 for an address the indexer has not seen). */
  levelOf: (address: string) => Promise<number>;
  chainId: number;
  now?: () => Date;
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());
  const typedData = governanceTypedData(deps.chainId);

  async function gate(user: UserRow, action: string) {
    const level = await deps.levelOf(user.evmAddress);
    if (hasUnlock(level, "governance")) return;
    const reason = `${action} needs level ${levelRequiredFor("governance")}; you are level ${level}`;
    throw new AppError("INELIGIBLE", reason, [{ field: "level", reason }]);
  }

  function view(p: ProposalRow, votes: VoteRow[], at: Date) {
    const counts = new Map(p.choices.map((c) => [c, 0]));
    for (const v of votes) counts.set(v.choice, (counts.get(v.choice) ?? 0) + 1);
    return {
      id: p.id,
      proposer: p.proposer,
      title: p.title,
      body: p.body,
      choices: p.choices,
      endsAt: p.endsAt.toISOString(),
      createdAt: p.createdAt.toISOString(),
      status: p.endsAt > at ? ("open" as const) : ("closed" as const),
      tally: p.choices.map((choice) => ({ choice, votes: counts.get(choice) ?? 0 })),
      totalVotes: votes.length,
      votes: votes.map((v) => ({ voter: v.voter, choice: v.choice, signature: v.signature, votedAt: v.votedAt.toISOString() })),
      eip712: { ...typedData, types: { Vote: [...typedData.types.Vote] } },
    };
  }

  async function found(id: string) {
    const p = await repo.findProposal(id);
    if (!p) throw new AppError("PROPOSAL_NOT_FOUND", "Proposal not found");
    return p;
  }

  return {
    typedData,
    async create(user: UserRow, body: NewProposal) {
      await gate(user, "Proposing");
      const at = now();
      const endsAt = new Date(body.endsAt);
      if (!(endsAt > at)) throw validationError([{ field: "body.endsAt", reason: `must be in the future (now ${at.toISOString()})` }]);
      if (endsAt.getTime() - at.getTime() > MAX_PROPOSAL_DAYS * 86_400_000) {
        throw validationError([{ field: "body.endsAt", reason: `must be at most ${MAX_PROPOSAL_DAYS} days ahead` }]);
      }
      const p = await repo.insertProposal({ proposer: user.evmAddress, title: body.title, body: body.body, choices: body.choices, endsAt });
      return view(p, [], at);
    },
    async get(id: string) {
      const p = await found(id);
      return view(p, await repo.votesOf([p.id]), now());
    },
    async list(limit: number) {
      const proposals = await repo.listProposals(limit);
      const votes = await repo.votesOf(proposals.map((p) => p.id));
      const at = now();
      return proposals.map((p) => view(p, votes.filter((v) => v.proposalId === p.id), at));
    },
    /** Casts or replaces the caller's vote; the signature must be the caller's wallet's over { proposalId, choice }. */
    async vote(user: UserRow, id: string, body: z.infer<typeof VoteBody>) {
      // The caller's level first: below it, no proposal (nor whether one exists) is their business.
      await gate(user, "Voting");
      const p = await found(id);
      const closed = () => new AppError("PROPOSAL_CLOSED", `Voting on this proposal ended at ${p.endsAt.toISOString()}`);
      if (!(p.endsAt > now())) throw closed();
      if (!p.choices.includes(body.choice)) {
        throw validationError([{ field: "body.choice", reason: `must be one of the proposal's choices: ${p.choices.map((c) => JSON.stringify(c)).join(", ")}` }]);
      }
      const signer = await recoverTypedDataAddress({
        ...typedData,
        message: { proposalId: p.id, choice: body.choice },
        signature: body.signature as Hex,
      }).catch(() => null);
      if (signer?.toLowerCase() !== user.evmAddress.toLowerCase()) {
        const reason = signer
          ? `recovers to ${signer.toLowerCase()}, not to your address ${user.evmAddress}: sign { proposalId, choice } with the proposal's eip712 domain and types`
          : "is not a valid ECDSA signature";
        throw new AppError("INVALID_SIGNATURE", `signature ${reason}`, [{ field: "body.signature", reason }]);
      }
      const cast = await repo.castVote({ proposalId: p.id, voter: user.evmAddress, choice: body.choice, signature: body.signature, now: now() });
      if (!cast) throw closed();
      const { vote, replaced } = cast;
      return { proposalId: vote.proposalId, voter: vote.voter, choice: vote.choice, signature: vote.signature, votedAt: vote.votedAt.toISOString(), replaced };
    },
  };
}
export type GovernanceService = ReturnType<typeof governanceService>;
