// Chain tables of the marketplace. Amounts are base units of the 6-decimal stablecoin (bigint);
// times are unix seconds of the block (bigint); ids are documented in docs/decisions.md.
import { index, onchainTable } from "ponder";
import type { DisputeId, DisputeOutcome, DisputeState, MissionId, MissionState } from "../domain/index.ts";

export const missions = onchainTable(
  "missions",
  (t) => ({
    id: t.text().primaryKey().$type<MissionId>(), // UUID from (chainId, escrow, onChainId)
    chainId: t.integer().notNull(),
    onChainId: t.bigint().notNull(),
    escrowAddress: t.hex().notNull(),
    poster: t.hex().notNull(),
    performer: t.hex(),
    guildOnChainId: t.integer().notNull(), // on-chain guild id, 0 = no guild (guildUuid is the API's guildId)
    guildUuid: t.text(),
    reward: t.bigint().notNull(),
    ddrAmount: t.bigint().notNull(), // the DDR a dispute costs (reserveFor), the paid one once disputed
    guildFeeBps: t.integer().notNull(),
    state: t.text().notNull().$type<MissionState>(),
    detailsHash: t.hex().notNull(),
    proofHash: t.hex(),
    disputeId: t.text().$type<DisputeId>(),
    refundAmount: t.bigint(),
    released: t.bigint().notNull().default(0n), // Σ partial releases to the performer (gross, before fees)
    refunded: t.bigint().notNull().default(0n), // Σ partial refunds to the poster
    expiresAt: t.bigint().notNull(),
    createdAt: t.bigint().notNull(),
    acceptedAt: t.bigint(),
    submittedAt: t.bigint(),
    reviewDeadline: t.bigint(),
    completedAt: t.bigint(),
    cancelledAt: t.bigint(),
    expiredAt: t.bigint(),
    disputedAt: t.bigint(),
    createdTxHash: t.hex().notNull(),
    detailsUpdatedTxHash: t.hex(),
    acceptedTxHash: t.hex(),
    submittedTxHash: t.hex(),
    completedTxHash: t.hex(),
    cancelledTxHash: t.hex(),
    expiredTxHash: t.hex(),
    disputedTxHash: t.hex(),
    createdBlock: t.bigint().notNull(),
    updatedBlock: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (t) => ({
    onChainIdx: index().on(t.onChainId),
    posterIdx: index().on(t.poster),
    performerIdx: index().on(t.performer),
    guildIdx: index().on(t.guildOnChainId),
    stateIdx: index().on(t.state, t.createdAt),
    createdIdx: index().on(t.createdAt),
    // The feed and the mission list sort open missions by reward and by expiry.
    stateRewardIdx: index().on(t.state, t.reward),
    stateExpiryIdx: index().on(t.state, t.expiresAt),
  }),
);

export const settlements = onchainTable("settlements", (t) => ({
  missionId: t.text().primaryKey(),
  onChainId: t.bigint().notNull(),
  performer: t.hex().notNull(),
  performerAmount: t.bigint().notNull(),
  protocolAmount: t.bigint().notNull(),
  guildAmount: t.bigint().notNull(),
  labsAmount: t.bigint().notNull(),
  resolverAmount: t.bigint().notNull(),
  byClaim: t.boolean().notNull(),
  settledAt: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

export const disputes = onchainTable(
  "disputes",
  (t) => ({
    id: t.text().primaryKey().$type<DisputeId>(), // UUID from ("dispute", chainId, escrow, onChainId)
    onChainId: t.bigint().notNull(),
    escrowAddress: t.hex().notNull(),
    missionId: t.text().notNull().$type<MissionId>(),
    missionOnChainId: t.bigint().notNull(),
    poster: t.hex().notNull(),
    performer: t.hex().notNull(),
    initiator: t.hex().notNull(),
    resolver: t.hex(),
    state: t.text().notNull().$type<DisputeState>(),
    outcome: t.text().notNull().$type<DisputeOutcome>(),
    splitPercentage: t.integer(),
    ddrAmount: t.bigint().notNull(),
    lppAmount: t.bigint().notNull(),
    reasonHash: t.hex().notNull(),
    posterEvidenceHash: t.hex(),
    performerEvidenceHash: t.hex(),
    resolutionHash: t.hex(),
    resolutionDeadline: t.bigint(),
    assignedAt: t.bigint(),
    resolvedAt: t.bigint(),
    appealDeadline: t.bigint(),
    appellant: t.hex(),
    appealedAt: t.bigint(),
    appealDecisionDeadline: t.bigint(),
    appealedOutcome: t.text().$type<DisputeOutcome>(),
    appealResolver: t.hex(),
    appealOverturned: t.boolean(),
    finalizedAt: t.bigint(),
    byDefault: t.boolean(),
    missionState: t.text().$type<MissionState>(), // the mission's state after finalization
    payoutPoster: t.bigint(),
    payoutPerformer: t.bigint(),
    payoutProtocol: t.bigint(),
    payoutGuild: t.bigint(),
    payoutLabs: t.bigint(),
    payoutResolver: t.bigint(),
    payoutResolverAddress: t.hex(),
    payoutPool: t.bigint(), // the resolver pool's share of the settled performer part
    settledByAgreement: t.boolean(), // finalized by an accepted settlement offer (MissionSettled)
    resolverPoolAfter: t.bigint(), // the pool after it paid this dispute's resolver (ResolverPaid)
    createdAt: t.bigint().notNull(),
    raisedTxHash: t.hex().notNull(),
    resolvedTxHash: t.hex(),
    appealedTxHash: t.hex(),
    finalizedTxHash: t.hex(),
    updatedBlock: t.bigint().notNull(),
  }),
  (t) => ({
    onChainIdx: index().on(t.onChainId),
    missionIdx: index().on(t.missionId),
    stateIdx: index().on(t.state),
    resolverIdx: index().on(t.resolver),
    initiatorIdx: index().on(t.initiator),
    posterIdx: index().on(t.poster),
    performerIdx: index().on(t.performer),
  }),
);

export const guilds = onchainTable(
  "guilds",
  (t) => ({
    id: t.text().primaryKey(), // UUID from ("guild", chainId, registry, onChainId)
    onChainId: t.integer().notNull(),
    contractAddress: t.hex().notNull(),
    name: t.text().notNull(),
    displayName: t.text().notNull(),
    description: t.text().notNull(),
    category: t.text().notNull(),
    feeBps: t.integer().notNull(),
    treasury: t.hex().notNull(),
    creator: t.hex().notNull(),
    memberCount: t.integer().notNull(),
    totalCompleted: t.integer().notNull(),
    totalEarned: t.bigint().notNull(), // guild fees (guildAmount) of its completed missions
    guildReputation: t.integer().notNull(),
    createdAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    updatedBlock: t.bigint().notNull(),
  }),
  (t) => ({
    onChainIdx: index().on(t.onChainId),
    nameIdx: index().on(t.name),
    categoryIdx: index().on(t.category),
  }),
);

export const guildMembers = onchainTable(
  "guild_members",
  (t) => ({
    id: t.text().primaryKey(), // `${guildOnChainId}:${lowercase account}`
    guildOnChainId: t.integer().notNull(),
    guildUuid: t.text().notNull(),
    account: t.hex().notNull(),
    roles: t.integer().notNull(), // bits: 1 curator, 2 officer, 4 admin
    isCurator: t.boolean().notNull(),
    isOfficer: t.boolean().notNull(),
    isAdmin: t.boolean().notNull(),
    guildXP: t.integer().notNull(),
    active: t.boolean().notNull(),
    joinedAt: t.bigint().notNull(),
    leftAt: t.bigint(),
    updatedBlock: t.bigint().notNull(),
  }),
  (t) => ({
    guildIdx: index().on(t.guildOnChainId, t.active),
    accountIdx: index().on(t.account),
  }),
);

export const boardEntries = onchainTable(
  "board_entries",
  (t) => ({
    id: t.text().primaryKey(), // `${guildOnChainId}:${missionOnChainId}`
    guildOnChainId: t.integer().notNull(),
    guildUuid: t.text().notNull(),
    missionOnChainId: t.bigint().notNull(),
    missionId: t.text().notNull(),
    curator: t.hex().notNull(),
    minGuildXP: t.integer().notNull(),
    featured: t.boolean().notNull(),
    notes: t.text().notNull(),
    active: t.boolean().notNull(),
    createdAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
    removedAt: t.bigint(),
    removedBy: t.hex(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ guildIdx: index().on(t.guildOnChainId, t.active), missionIdx: index().on(t.missionId) }),
);

export const achievementDefinitions = onchainTable("achievement_definitions", (t) => ({
  achievementId: t.bigint().primaryKey(),
  name: t.text().notNull(),
  description: t.text().notNull(),
  image: t.text().notNull(),
  requirements: t.text().notNull(),
  achievementType: t.text().notNull(),
  xpReward: t.integer().notNull(),
  soulbound: t.boolean().notNull(),
  definedAt: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

export const nfts = onchainTable(
  "nfts",
  (t) => ({
    tokenId: t.bigint().primaryKey(),
    contractAddress: t.hex().notNull(),
    owner: t.hex().notNull(),
    minter: t.hex().notNull(), // first owner
    achievementId: t.bigint().notNull(),
    soulbound: t.boolean().notNull(),
    missionOnChainId: t.bigint().notNull(), // 0 when not earned for a mission
    missionId: t.text(),
    type: t.text().notNull(),
    name: t.text().notNull(),
    description: t.text().notNull(),
    image: t.text().notNull(),
    mintedAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ ownerIdx: index().on(t.owner), achievementIdx: index().on(t.achievementId) }),
);

export const ratings = onchainTable(
  "ratings",
  (t) => ({
    uid: t.hex().primaryKey(), // EAS attestation uid
    schemaUid: t.hex().notNull(),
    missionIdRaw: t.hex().notNull(), // bytes32 of the schema: bytes32(uint256(onChainId))
    missionOnChainId: t.bigint().notNull(),
    missionId: t.text(), // mission UUID when the mission exists
    rater: t.hex().notNull(),
    ratee: t.hex().notNull(),
    score: t.integer().notNull(),
    comment: t.text().notNull(),
    timestamp: t.bigint().notNull(), // the schema's timestamp field
    attester: t.hex().notNull(),
    recipient: t.hex().notNull(),
    time: t.bigint().notNull(), // EAS attestation time
    revocable: t.boolean().notNull(),
    counted: t.boolean().notNull(), // counts for reputation, stats and XP
    ignoredReason: t.text(),
    raterRole: t.text(), // poster | performer (the rater's side), when counted
    reputationDelta: t.integer().notNull(),
    txHash: t.hex().notNull(),
    blockNumber: t.bigint().notNull(),
  }),
  (t) => ({
    rateeIdx: index().on(t.ratee),
    raterIdx: index().on(t.rater),
    missionIdx: index().on(t.missionId),
    missionRaterIdx: index().on(t.missionOnChainId, t.rater),
  }),
);

export const builderScores = onchainTable("builder_scores", (t) => ({
  account: t.hex().primaryKey(),
  score: t.integer().notNull(),
  provider: t.hex().notNull(),
  updatedAt: t.bigint().notNull(),
  txHash: t.hex().notNull(),
}));

export const referrals = onchainTable(
  "referrals",
  (t) => ({
    referee: t.hex().primaryKey(),
    referrer: t.hex().notNull(),
    recordedAt: t.bigint().notNull(),
    rewarded: t.boolean().notNull(), // referral XP paid (at the referee's first completion)
    rewardedAt: t.bigint(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ referrerIdx: index().on(t.referrer) }),
);

export const operatorApprovals = onchainTable(
  "operator_approvals",
  (t) => ({
    id: t.text().primaryKey(), // `${user}:${operator}` lowercase
    user: t.hex().notNull(),
    operator: t.hex().notNull(),
    approved: t.boolean().notNull(),
    updatedAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ userIdx: index().on(t.user), operatorIdx: index().on(t.operator) }),
);

export const userStats = onchainTable(
  "user_stats",
  (t) => ({
    address: t.hex().primaryKey(), // lowercase
    totalEarned: t.bigint().notNull(),
    totalSpent: t.bigint().notNull(),
    missionsPosted: t.integer().notNull(),
    missionsCompleted: t.integer().notNull(),
    disputesWon: t.integer().notNull(),
    disputesLost: t.integer().notNull(),
    ratingCount: t.integer().notNull(),
    ratingSum: t.integer().notNull(), // average = ratingSum / ratingCount
    reputation: t.integer().notNull(),
    totalXP: t.integer().notNull(),
    level: t.integer().notNull(),
    streakCount: t.integer().notNull(),
    lastCompletionAt: t.bigint(),
    firstMissionAwarded: t.boolean().notNull(),
    builderScore: t.integer(), // null = no score from the provider
    firstSeenAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (t) => ({
    xpIdx: index().on(t.totalXP),
    builderIdx: index().on(t.builderScore, t.totalXP),
    reputationIdx: index().on(t.reputation),
  }),
);

export const xpLedger = onchainTable(
  "xp_ledger",
  (t) => ({
    id: t.text().primaryKey(), // the journal key of its XP_AWARDED entry, as a decimal string
    key: t.bigint().notNull(),
    user: t.hex().notNull(),
    xpDelta: t.integer().notNull(),
    source: t.text().notNull(),
    missionId: t.text(),
    missionOnChainId: t.bigint(),
    reason: t.text().notNull(),
    balanceAfter: t.integer().notNull(),
    multiplierBps: t.integer().notNull(), // builder multiplier applied to this entry
    createdAt: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (t) => ({ userIdx: index().on(t.user, t.key), sourceIdx: index().on(t.source) }),
);

export const journal = onchainTable(
  "journal",
  (t) => ({
    id: t.bigint().primaryKey(), // block * 1e9 + logIndex * 1e3 + seq: read with `id > cursor`
    chainId: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    txHash: t.hex().notNull(),
    logIndex: t.integer().notNull(),
    seq: t.integer().notNull(),
    type: t.text().notNull(),
    missionId: t.text(),
    account: t.hex(), // the user the event is mainly about (recipient of a notification)
    payload: t.json().notNull(),
  }),
  (t) => ({ typeIdx: index().on(t.type), accountIdx: index().on(t.account), missionIdx: index().on(t.missionId) }),
);

/** The open settlement offers: at most one per mission and side; a withdrawn or cleared offer is deleted. */
export const settlementOffers = onchainTable(
  "settlement_offers",
  (t) => ({
    id: t.text().primaryKey(), // `${missionId}:poster` | `${missionId}:performer`
    missionId: t.text().notNull().$type<MissionId>(),
    missionOnChainId: t.bigint().notNull(),
    party: t.hex().notNull(), // lowercase
    byPoster: t.boolean().notNull(),
    performerAmount: t.bigint().notNull(),
    posterAmount: t.bigint().notNull(), // the remainder at the offer − performerAmount
    createdAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ missionIdx: index().on(t.missionId) }),
);

/** Money that left a mission's escrow in parts or by agreement: partial releases and refunds, settlements. */
export const missionPayments = onchainTable(
  "mission_payments",
  (t) => ({
    id: t.text().primaryKey(), // Ponder's event id
    missionId: t.text().notNull().$type<MissionId>(),
    missionOnChainId: t.bigint().notNull(),
    kind: t.text().notNull().$type<"release" | "refund" | "settlement">(),
    performerGross: t.bigint().notNull(), // performer-bound amount before fees (0 for a refund)
    posterAmount: t.bigint().notNull(), // back to the poster (refund; a settlement's rest)
    performerAmount: t.bigint().notNull(), // what the performer received (net of the shares)
    protocolAmount: t.bigint().notNull(),
    guildAmount: t.bigint().notNull(),
    labsAmount: t.bigint().notNull(),
    poolAmount: t.bigint().notNull(), // into the resolver pool
    remaining: t.bigint().notNull(), // the escrow's remainder for the mission afterwards
    disputeId: t.text().$type<DisputeId>(),
    createdAt: t.bigint().notNull(),
    txHash: t.hex().notNull(),
  }),
  (t) => ({ missionIdx: index().on(t.missionId) }),
);

/** The escrow's resolver pool: inflow from every settlement's pool share, outflow to resolvers. */
export const resolverPool = onchainTable("resolver_pool", (t) => ({
  id: t.hex().primaryKey(), // the escrow's address, lowercase
  balance: t.bigint().notNull(),
  totalIn: t.bigint().notNull(),
  totalOut: t.bigint().notNull(),
  paidDecisions: t.integer().notNull(),
  updatedBlock: t.bigint().notNull(),
}));
