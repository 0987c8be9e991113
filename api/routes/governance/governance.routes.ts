import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, publicAccess } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { ProposalBody, ProposalListQuery, VoteBody } from "./governance.schemas.ts";

const tags = ["Governance"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T extends z.ZodTypeAny>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };

const Vote = z.object({ voter: z.string(), choice: z.string(), signature: z.string(), votedAt: z.string() }).openapi("GovernanceVote");
const TypedData = z
  .object({
    domain: z.object({ name: z.string(), version: z.string(), chainId: z.number() }),
    types: z.object({ Vote: z.array(z.object({ name: z.string(), type: z.string() })) }),
    primaryType: z.literal("Vote"),
  })
  .openapi("GovernanceTypedData", { description: "Sign message { proposalId: <id>, choice } with these; verify the same way" });
export const Proposal = z
  .object({
    id: z.string(), proposer: z.string(), title: z.string(), body: z.string(), choices: z.array(z.string()),
    endsAt: z.string(), createdAt: z.string(), status: z.enum(["open", "closed"]),
    tally: z.array(z.object({ choice: z.string(), votes: z.number() })),
    totalVotes: z.number(),
    votes: z.array(Vote).openapi({ description: "Each wallet's current vote, oldest first" }),
    eip712: TypedData,
  })
  .openapi("Proposal");
const CastVote = z
  .object({
    proposalId: z.string(), voter: z.string(), choice: z.string(), signature: z.string(), votedAt: z.string(),
    replaced: z.boolean().openapi({ description: "True when this vote replaced the wallet's earlier one" }),
  })
  .openapi("CastVote");
const IdParam = z.object({ id: z.uuid("must be a proposal id (uuid)") });

export const create = createRoute({
  method: "post", path: "/governance/proposals", operationId: "createProposal", tags, ...auth,
  summary: "Propose (level 16): 2..10 distinct choices, endsAt in the future; below level 16 403 INELIGIBLE (field level)",
  request: { body: body(ProposalBody) },
  responses: { 201: json(Proposal, "The proposal"), ...errorResponses(400, 401, 403, 429) },
});
export const list = createRoute({
  method: "get", path: "/governance/proposals", operationId: "listProposals", security: publicAccess, tags,
  summary: "Proposals, newest first, with tallies and signed votes",
  request: { query: ProposalListQuery },
  responses: { 200: json(z.array(Proposal), "Proposals"), ...errorResponses(400, 429) },
});
export const get = createRoute({
  method: "get", path: "/governance/proposals/{id}", operationId: "getProposal", security: publicAccess, tags,
  summary: "A proposal with its tally and signed votes (each verifiable with the eip712 field)",
  request: { params: IdParam },
  responses: { 200: json(Proposal, "The proposal"), ...errorResponses(400, 404, 429) },
});
export const vote = createRoute({
  method: "post", path: "/governance/proposals/{id}/votes", operationId: "voteOnProposal", tags, ...auth,
  summary: "Vote (level 16, checked first: 403 INELIGIBLE field level), or replace the caller's vote, until endsAt (then 409 PROPOSAL_CLOSED); a signature not by the caller is 400 INVALID_SIGNATURE",
  request: { params: IdParam, body: body(VoteBody) },
  responses: { 201: json(CastVote, "The stored vote"), ...errorResponses(400, 401, 403, 404, 409, 429) },
});
