// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title IMissionEscrow
/// @notice Holds every reward, dispute reserve (DDR) and appeal pool (LPP) of the marketplace in one
/// stablecoin, and is the truth of every mission and dispute. Every state change emits an event that
/// carries all the indexer needs; indexing never reads storage.
/// @dev Functions that act for a party take the party's address and accept either the party or an
/// operator the party authorised in the OperatorRegistry. Payouts are pushed to the party and fall back to
/// a credit (`withdraw`) when the push fails, so a payee that cannot receive never blocks anyone else.
interface IMissionEscrow {
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A mission was created and its reward pulled from the poster.
    event MissionCreated(
        uint256 indexed missionId,
        address indexed poster,
        uint32 indexed guildId,
        uint256 reward,
        uint256 expiresAt,
        uint16 guildFeeBps,
        bytes32 detailsHash
    );

    /// @notice The poster changed the off-chain details commitment of an Open mission.
    event MissionDetailsUpdated(uint256 indexed missionId, bytes32 previousDetailsHash, bytes32 detailsHash);

    /// @notice A performer accepted an Open mission under `detailsHash`.
    event MissionAccepted(uint256 indexed missionId, address indexed performer, bytes32 detailsHash);

    /// @notice The performer submitted proof; the poster may approve or dispute until `reviewDeadline`.
    event MissionSubmitted(
        uint256 indexed missionId, address indexed performer, bytes32 proofHash, uint256 reviewDeadline
    );

    /// @notice The reward was settled into the five shares: by the poster's approval (`byClaim` false)
    /// or by the performer's claim after the review window lapsed (`byClaim` true).
    event MissionCompleted(
        uint256 indexed missionId, address indexed performer, Missions.Settlement settlement, bool byClaim
    );

    /// @notice The poster cancelled an Open mission and got `refund` back.
    event MissionCancelled(uint256 indexed missionId, address indexed poster, uint256 refund);

    /// @notice The mission passed its expiry unfinished (Open, or Accepted without proof) and the poster
    /// got `refund` back. `performer` is the performer who never submitted, or address(0).
    event MissionExpired(uint256 indexed missionId, address indexed poster, address performer, uint256 refund);

    /// @notice A party disputed a Submitted mission and paid the DDR.
    event DisputeRaised(
        uint256 indexed disputeId,
        uint256 indexed missionId,
        address indexed initiator,
        uint256 ddrAmount,
        bytes32 reasonHash
    );

    /// @notice A resolver took a Pending dispute; they must resolve it by `deadline`.
    event DisputeAssigned(uint256 indexed disputeId, address indexed resolver, uint256 deadline);

    /// @notice The resolver missed `deadline`; the dispute is Pending again for another resolver.
    event DisputeReleased(uint256 indexed disputeId, address indexed resolver);

    /// @notice A party recorded the hash of their evidence. `isPoster` tells the side.
    event EvidenceSubmitted(uint256 indexed disputeId, address indexed party, bool isPoster, bytes32 evidenceHash);

    /// @notice The resolver decided. Either party may appeal until `appealDeadline`.
    event DisputeResolved(
        uint256 indexed disputeId,
        address indexed resolver,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        bytes32 resolutionHash,
        uint256 appealDeadline
    );

    /// @notice A party appealed and paid the LPP; an appeals resolver must decide by `decisionDeadline`.
    event DisputeAppealed(
        uint256 indexed disputeId, address indexed appellant, uint256 lppAmount, uint256 decisionDeadline
    );

    /// @notice An appeals resolver decided the appeal. `overturned` is true when the outcome changed.
    event AppealDecided(
        uint256 indexed disputeId,
        address indexed appealResolver,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        bytes32 resolutionHash,
        bool overturned
    );

    /// @notice The dispute ended and every token held for it was paid out. `byDefault` is true when no
    /// resolver decided in time and the default outcome applied.
    event DisputeFinalized(
        uint256 indexed disputeId,
        uint256 indexed missionId,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        Missions.State missionState,
        Disputes.Payout payout,
        bool byDefault
    );

    /// @notice A push to `account` failed and `amount` was credited for `withdraw` instead.
    event Credited(address indexed account, uint256 amount);

    /// @notice Credits of `account` were paid out to `account`.
    event Withdrawn(address indexed account, uint256 amount);

    /// @notice Guild fees of `guildId` were paid to its treasury.
    event GuildFeesWithdrawn(uint32 indexed guildId, address indexed treasury, uint256 amount);

    /// @notice An admin changed a time window (see `Window`).
    event WindowSet(uint8 indexed window, uint256 value);

    /// @notice An admin changed the address receiving the protocol or labs share.
    event TreasurySet(address protocolTreasury, address labsTreasury);

    /*//////////////////////////////////////////////////////////////
                                MISSIONS
    //////////////////////////////////////////////////////////////*/

    /// @notice Creates a mission and pulls `reward` from `poster`.
    /// @dev Requirements:
    /// - caller is `poster` or its operator.
    /// - `minReward() <= reward <= type(uint64).max`.
    /// - `block.timestamp + minDuration <= expiresAt <= block.timestamp + maxDuration`.
    /// - `guildId` is 0 or an existing guild; its fee is snapshotted.
    /// - `detailsHash` is not zero.
    /// - the escrow receives exactly `reward` (fee-on-transfer tokens are rejected).
    function createMission(address poster, uint256 reward, uint256 expiresAt, uint32 guildId, bytes32 detailsHash)
        external
        returns (uint256 missionId);

    /// @notice Replaces the details commitment of an Open mission (the API's PATCH).
    /// @dev Requirements: caller is the poster or its operator; the mission is Open and not expired.
    function updateDetails(uint256 missionId, bytes32 detailsHash) external;

    /// @notice `performer` accepts an Open mission, bound to the `detailsHash` they saw.
    /// @dev Requirements: caller is `performer` or its operator; Open; not expired; `performer` is not
    /// the poster; `detailsHash` equals the current commitment (else `MissionEscrow_TermsChanged`).
    function acceptMission(uint256 missionId, address performer, bytes32 detailsHash) external;

    /// @notice The performer submits the hash of their proof. Starts the review window.
    /// @dev Requirements: caller is the performer or its operator; Accepted; not expired; hash not zero.
    function submitProof(uint256 missionId, bytes32 proofHash) external;

    /// @notice The poster approves the proof and the reward is settled.
    /// @dev Requirements: caller is the poster or its operator; Submitted.
    function approveMission(uint256 missionId) external returns (Missions.Settlement memory settlement);

    /// @notice Anyone settles a Submitted mission whose review window lapsed without approval or dispute.
    function claimAfterReview(uint256 missionId) external returns (Missions.Settlement memory settlement);

    /// @notice The poster cancels an Open mission; the full reward is refunded.
    function cancelMission(uint256 missionId) external returns (uint256 refund);

    /// @notice Anyone expires a mission past `expiresAt` that is Open, or Accepted without proof; the
    /// full reward is refunded to the poster.
    function expireMission(uint256 missionId) external returns (uint256 refund);

    /*//////////////////////////////////////////////////////////////
                                DISPUTES
    //////////////////////////////////////////////////////////////*/

    /// @notice A party disputes a Submitted mission within its review window and pays the DDR.
    /// @dev Requirements: caller is `initiator` or its operator; `initiator` is the poster or performer;
    /// Submitted; `block.timestamp < reviewDeadline`.
    function raiseDispute(uint256 missionId, address initiator, bytes32 reasonHash) external returns (uint256 disputeId);

    /// @notice `resolver` takes a Pending dispute from the queue.
    /// @dev Requirements: caller is `resolver` or its operator; `resolver` holds RESOLVER_ROLE and is
    /// not a party.
    function takeDispute(uint256 disputeId, address resolver) external;

    /// @notice Anyone returns an Investigating dispute whose resolver missed the deadline to Pending.
    function releaseDispute(uint256 disputeId) external;

    /// @notice A party records the hash of their evidence (latest wins), before a decision is made.
    function submitEvidence(uint256 disputeId, address party, bytes32 evidenceHash) external;

    /// @notice The assigned resolver decides. `splitPercentage` (1..99, the performer's share of the net
    /// reward) only with Split, else 0.
    function resolveDispute(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external;

    /// @notice A party appeals a Resolved dispute before its appeal deadline and pays the LPP.
    function appealDispute(uint256 disputeId, address appellant) external;

    /// @notice An appeals resolver (APPEALS_ROLE, not a party, not the first resolver) decides an appeal.
    /// The decision is final: the dispute is finalized and paid out in the same call.
    function decideAppeal(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external;

    /// @notice Anyone finalizes a dispute whose deadline passed: a Resolved one after its appeal window
    /// (the resolver's outcome), an Appealed one nobody decided (the resolver's outcome, LPP refunded),
    /// or one no resolver decided within the dispute timeout (the default outcome).
    function finalizeDispute(uint256 disputeId) external;

    /*//////////////////////////////////////////////////////////////
                               PAYMENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice Pays `account`'s credits to `account`. Anyone may call; the funds only go to `account`.
    function withdraw(address account) external returns (uint256 amount);

    /// @notice Pays the accrued fees of `guildId` to the guild's treasury. Anyone may call.
    function withdrawGuildFees(uint32 guildId) external returns (uint256 amount);

    /*//////////////////////////////////////////////////////////////
                                 ADMIN
    //////////////////////////////////////////////////////////////*/

    /// @notice Sets a time window (DEFAULT_ADMIN_ROLE). Applies to deadlines set afterwards only.
    /// @dev Bounds: Review 3..14 days, Resolution 1..14 days, Appeal 1..14 days, AppealDecision 1..30 days,
    /// DisputeTimeout 7..90 days; else `MissionEscrow_InvalidWindow`. Emits `WindowSet`.
    function setWindow(Missions.Window window, uint256 value) external;

    /// @notice Sets the protocol and labs treasuries (DEFAULT_ADMIN_ROLE). Neither may be zero.
    function setTreasuries(address protocolTreasury, address labsTreasury) external;

    /*//////////////////////////////////////////////////////////////
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    function token() external view returns (address);
    function protocolTreasury() external view returns (address);
    function labsTreasury() external view returns (address);
    /// @notice The current length of `window`, in seconds.
    function windowOf(Missions.Window window) external view returns (uint256);
    function getMission(uint256 missionId) external view returns (Missions.Mission memory);
    function getDispute(uint256 disputeId) external view returns (Disputes.Dispute memory);
    function disputeOf(uint256 missionId) external view returns (uint256 disputeId);
    function missionCount() external view returns (uint256);
    function disputeCount() external view returns (uint256);
    function credits(address account) external view returns (uint256);
    function guildFees(uint32 guildId) external view returns (uint256);
    /// @notice The DDR (and LPP) a dispute of a mission with `reward` costs: 5%, at least `minReserve`.
    function reserveFor(uint256 reward) external view returns (uint256);
    /// @notice The settlement an approval of `reward` with `guildFeeBps` pays.
    function previewSettlement(uint256 reward, uint16 guildFeeBps)
        external
        view
        returns (Missions.Settlement memory);
}
