import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, publicAccess } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { MAX_PROPOSAL_DAYS } from "../../services/governance/governance.service.ts";

const tags = ["Governance"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T extends z.ZodTypeAny>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `at most ${max} characters`);
const ProposalBody = z
  .object({
    title: text(200),
    body: text(10_000),
    choices: z
      .array(text(100))
      .min(2, "at least 2 choices")
      .max(10, "at most 10 choices")
      .refine((cs) => new Set(cs).size === cs.length, "choices must be distinct"),
    endsAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 timestamp, e.g. 2030-01-01T00:00:00Z" }).openapi({
      description: `When voting ends: in the future, at most ${MAX_PROPOSAL_DAYS} days ahead`,
    }),
  })
  .openapi("NewProposal");
const VoteBody = z
  .object({
    choice: text(100).openapi({ description: "One of the proposal's choices, exactly" }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x-hex signature")
      .openapi({ description: "EIP-712 signature by the caller's wallet of Vote { proposalId, choice } under the proposal's eip712 domain" }),
  })
  .openapi("NewVote");

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
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }) },
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
