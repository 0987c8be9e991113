// The journal's events: one type and one payload shape per entry, declared here once. The indexer
// emits `JournalEvents[T]` (bigints, checksummed or lowercase addresses); the row stores it as JSON
// (lib/journal.ts toJsonPayload: bigints as decimal strings, addresses lowercase) and consumers read
// `JournalEntry`, a union on `type`, so `switch (entry.type)` narrows `entry.payload`.
import type { Abi, Address, ContractEventName, GetEventArgs, Hex } from "viem";
import type {
  achievementNftAbi,
  guildRegistryAbi,
  missionEscrowAbi,
  operatorRegistryAbi,
  reputationRegistryAbi,
} from "../abis/index.ts";
import type { XpSource } from "./xp.ts";
import type { DisputeId, GuildId, MissionId, OnChainId } from "./ids.ts";
import type { roleFlags } from "./roles.ts";
import type { DisputeOutcome, MissionState } from "./states.ts";

/** An event's decoded arguments, all of them, as Ponder hands them to a handler. */
type Args<A extends Abi, N extends ContractEventName<A>> = GetEventArgs<A, N, { EnableUnion: false; IndexedOnly: false; Required: true }>;
type Escrow<N extends ContractEventName<typeof missionEscrowAbi>> = Args<typeof missionEscrowAbi, N>;
type Guilds<N extends ContractEventName<typeof guildRegistryAbi>> = Args<typeof guildRegistryAbi, N>;
type Nft<N extends ContractEventName<typeof achievementNftAbi>> = Args<typeof achievementNftAbi, N>;
type Operators<N extends ContractEventName<typeof operatorRegistryAbi>> = Args<typeof operatorRegistryAbi, N>;
type Reputation<N extends ContractEventName<typeof reputationRegistryAbi>> = Args<typeof reputationRegistryAbi, N>;

/** What an approval (or a claim after the review window) paid out: the escrow's Missions.Settlement. */
export type Settlement = Escrow<"MissionCompleted">["settlement"];
/** What a finalized dispute paid out: the escrow's Disputes.Payout. */
export type Payout = Escrow<"DisputeFinalized">["payout"];

/** A rating attestation's data (the rating schema of EAS). */
export type Rating = {
  missionId: Hex;
  rater: Address;
  ratee: Address;
  score: number;
  comment: string;
  timestamp: bigint;
};

type Mission = { id: MissionId };
type Parties = { poster: Address; performer: Address };
type Dispute = { id: DisputeId };
/** The end of a dispute as seen from its mission (MISSION_COMPLETED or MISSION_CANCELLED). */
type SettledByDispute = Mission & Parties & { onChainId: OnChainId; viaDispute: true; disputeId: DisputeId; payout: Payout };

/** Every journal type and the payload the indexer emits for it. */
export interface JournalEvents {
  MISSION_CREATED: Escrow<"MissionCreated"> & Mission;
  MISSION_DETAILS_UPDATED: Escrow<"MissionDetailsUpdated"> & Mission;
  /** `detailsHash` and `performer`: the mission row's (the events do not repeat them since issue 40's G1). */
  MISSION_ACCEPTED: Escrow<"MissionAccepted"> & Mission & { poster: Address; detailsHash: Hex };
  MISSION_SUBMITTED: Escrow<"MissionSubmitted"> & Mission & { poster: Address; performer: Address };
  /** `via`: the end came from the last partial release or an accepted settlement (absent: approval, claim, court). */
  MISSION_COMPLETED:
    | (Mission & Parties & { onChainId: OnChainId; settlement: Settlement; byClaim: boolean; viaDispute: false; via?: "release" | "settlement" })
    | (SettledByDispute & { via?: "settlement" });
  MISSION_CANCELLED:
    | (Escrow<"MissionCancelled"> & Mission & { viaDispute?: undefined; via?: "refund" | "settlement"; performer?: Address | null })
    | (SettledByDispute & { via?: "settlement" });
  MISSION_EXPIRED: Escrow<"MissionExpired"> & Mission;
  MISSION_SETTLEMENT_OFFERED: Escrow<"SettlementOffered"> & Mission & Parties;
  MISSION_SETTLEMENT_WITHDRAWN: Escrow<"SettlementWithdrawn"> & Mission & Parties;
  /** An accepted settlement; `disputeUuid` the dispute it finalized (null before a dispute). */
  MISSION_SETTLED: Escrow<"MissionSettled"> & Mission & Parties & { disputeUuid: DisputeId | null; missionState: MissionState };
  MISSION_RELEASED: Escrow<"MissionReleased"> & Mission & Parties;
  MISSION_REFUNDED: Escrow<"MissionRefunded"> & Mission & Parties;

  DISPUTE_RAISED: Escrow<"DisputeRaised"> & Dispute & { missionUuid: MissionId; poster: Address; performer: Address | null };
  DISPUTE_ASSIGNED: Escrow<"DisputeAssigned"> & Dispute;
  DISPUTE_RELEASED: Escrow<"DisputeReleased"> & Dispute;
  DISPUTE_EVIDENCE_SUBMITTED: Escrow<"EvidenceSubmitted"> & Dispute;
  DISPUTE_RESOLVED: Omit<Escrow<"DisputeResolved">, "outcome"> & Dispute & Parties & { outcome: DisputeOutcome };
  DISPUTE_APPEALED: Escrow<"DisputeAppealed"> & Dispute & Parties;
  DISPUTE_APPEAL_DECIDED: Omit<Escrow<"AppealDecided">, "outcome"> & Dispute & { outcome: DisputeOutcome };
  DISPUTE_FINALIZED: Dispute &
    Parties & {
      onChainId: OnChainId;
      missionId: MissionId;
      outcome: DisputeOutcome;
      splitPercentage: number | null;
      missionState: MissionState;
      payout: Payout;
      byDefault: boolean;
      /** Finalized by an accepted settlement (MissionSettled in the same transaction): no dispute XP. */
      settledByAgreement: boolean;
    };
  /** The resolver pool paid the resolver who decided (or was assigned at a settlement). */
  RESOLVER_PAID: Escrow<"ResolverPaid"> & Dispute & { missionUuid: MissionId };

  CREDITED: Escrow<"Credited">;
  WITHDRAWN: Escrow<"Withdrawn">;
  GUILD_FEES_WITHDRAWN: Escrow<"GuildFeesWithdrawn">;
  /** The accrued protocol and labs fees paid to the treasuries (issue 40: settlements accrue them). */
  FEES_WITHDRAWN: Escrow<"FeesWithdrawn">;
  ESCROW_WINDOW_SET: Escrow<"WindowSet">;
  ESCROW_TREASURY_SET: Escrow<"TreasurySet">;

  GUILD_CREATED: Guilds<"GuildCreated"> & { id: GuildId };
  GUILD_SETTINGS_UPDATED: Guilds<"GuildSettingsUpdated"> & { id: GuildId };
  MEMBER_JOINED: { guildId: number; guildUuid: GuildId; member: Address };
  MEMBER_LEFT: { guildId: number; guildUuid: GuildId; member: Address };
  ROLES_CHANGED: Guilds<"RolesChanged"> & ReturnType<typeof roleFlags>;
  BOARD_PUBLISHED: Guilds<"BoardEntryPublished"> & { missionUuid: MissionId };
  BOARD_REMOVED: Guilds<"BoardEntryRemoved">;
  GUILD_ESCROW_SET: Guilds<"EscrowSet">;

  ACHIEVEMENT_DEFINED: Nft<"AchievementDefined">;
  NFT_MINTED: Nft<"AchievementMinted"> & { name?: string; type?: string; missionUuid: MissionId | null };
  NFT_TRANSFERRED: Nft<"Transfer">;

  OPERATOR_SET: Operators<"OperatorSet">;
  BUILDER_SCORE_SET: Reputation<"BuilderScoreSet">;
  REFERRAL_RECORDED: Reputation<"ReferralRecorded">;
  RATING_ATTESTED: Rating & { uid: Hex; missionUuid: MissionId | null; counted: boolean; ignoredReason: string | null };

  XP_AWARDED: { ledgerId: string; user: Address; xpDelta: number; source: XpSource; reason: string; balanceAfter: number };
  LEVEL_UP: { user: Address; previousLevel: number; level: number; levelTitle: string; totalXP: number };
}

export type JournalType = keyof JournalEvents;

/** A value as it reads back from the journal's JSON column. */
export type Json<T> = T extends bigint
  ? string
  : T extends string | number | boolean | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? Json<U>[]
      : { [K in keyof T]: Json<T[K]> };

export type JournalPayload<T extends JournalType> = Json<JournalEvents[T]>;

/** The columns of a journal row besides its type and payload. */
export interface JournalRow {
  /** block × 10^9 + logIndex × 10^3 + seq: strictly increasing in chain order, deterministic. */
  id: bigint;
  chainId: number;
  blockNumber: bigint;
  blockTimestamp: bigint;
  txHash: string;
  logIndex: number;
  seq: number;
  missionId: string | null;
  account: string | null;
  /**
   * The log's place among the journal's logs of the same transaction (0 = its first), as the API reads
   * it back. With the tx hash and seq it names the event independently of its block: a transaction that
   * a reorg moves to another block keeps it, while its id (block and log index) changes.
   */
  txLogOffset?: number;
}

/** A type and its payload, as read back: a union on `type`, so `switch (e.type)` narrows `e.payload`. */
export type JournalEvent<T extends JournalType = JournalType> = { [K in T]: { type: K; payload: JournalPayload<K> } }[T];

/** A journal entry as consumers read it; `JournalEntry<"A" | "B">` for a reactor that takes only those. */
export type JournalEntry<T extends JournalType = JournalType> = JournalRow & JournalEvent<T>;
