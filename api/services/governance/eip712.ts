// The EIP-712 message a governance vote is: the voter's wallet signs { proposalId, choice } under
// this domain, so anyone holding a proposal's view can check every vote with viem's verifyTypedData.
// No verifyingContract: votes are signals kept off chain; chainId stops a vote on one deployment from
// counting on another.

export const GOVERNANCE_DOMAIN_NAME = "Mission marketplace governance";
export const GOVERNANCE_DOMAIN_VERSION = "1";

export const governanceVoteTypes = {
  Vote: [
    { name: "proposalId", type: "string" },
    { name: "choice", type: "string" },
  ],
} as const;

export const governanceDomain = (chainId: number) => ({
  name: GOVERNANCE_DOMAIN_NAME,
  version: GOVERNANCE_DOMAIN_VERSION,
  chainId,
});

/** What a client needs to sign a vote: message = { proposalId: <the proposal's id>, choice: <one of its choices> }. */
export const governanceTypedData = (chainId: number) => ({
  domain: governanceDomain(chainId),
  types: governanceVoteTypes,
  primaryType: "Vote" as const,
});
