// Inputs of the governance routes: the routes validate with them and the governance service takes
// what they infer.
import { z } from "@hono/zod-openapi";

/** A proposal may run at most this long. */
export const MAX_PROPOSAL_DAYS = 365;

const text = (max: number) => z.string().trim().min(1, "must not be empty").max(max, `at most ${max} characters`);
export const ProposalBody = z
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
export const VoteBody = z
  .object({
    choice: text(100).openapi({ description: "One of the proposal's choices, exactly" }),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]{130}$/, "must be a 65-byte 0x-hex signature")
      .openapi({ description: "EIP-712 signature by the caller's wallet of Vote { proposalId, choice } under the proposal's eip712 domain" }),
  })
  .openapi("NewVote");
export const ProposalListQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });
