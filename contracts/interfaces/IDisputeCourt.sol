// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IMissionEscrowState} from "./IMissionEscrowState.sol";
import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title IDisputeCourt
/// @notice The dispute court of the escrow: a party disputes a Submitted mission and pays the dispute
/// reserve (DDR); a resolver takes the dispute and decides; either party may appeal and pay the appeal
/// pool (LPP); an appeals resolver decides finally. Without a decision in time, anyone finalizes the
/// dispute with the outcome that stands, or with the default outcome (an even split, no resolver pay).
/// Part of IMissionEscrow: the court holds the same funds as the missions, in the same contract.
/// @dev Dispute states: Pending → Investigating → Resolved → (Appealed →) Finalized; Investigating
/// returns to Pending when the resolver misses its deadline.
interface IDisputeCourt is IMissionEscrowState {
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A party disputed a Submitted mission and paid the DDR.
    /// @param disputeId The new dispute's id.
    /// @param missionId The disputed mission, now Disputed.
    /// @param initiator The party who disputed (poster or performer).
    /// @param ddrAmount The DDR pulled from `initiator`, in the token's base units.
    /// @param reasonHash The commitment to the off-chain reason.
    event DisputeRaised(
        uint256 indexed disputeId,
        uint256 indexed missionId,
        address indexed initiator,
        uint256 ddrAmount,
        bytes32 reasonHash
    );

    /// @notice A resolver took a Pending dispute; they must resolve it by `deadline`.
    /// @param disputeId The dispute, now Investigating.
    /// @param resolver The resolver assigned.
    /// @param deadline The resolution deadline (unix seconds).
    event DisputeAssigned(uint256 indexed disputeId, address indexed resolver, uint256 deadline);

    /// @notice The resolver missed its deadline; the dispute is Pending again for another resolver.
    /// @param disputeId The dispute, now Pending.
    /// @param resolver The resolver who was unassigned.
    event DisputeReleased(uint256 indexed disputeId, address indexed resolver);

    /// @notice A party recorded the hash of their evidence (the latest replaces the earlier one).
    /// @param disputeId The dispute.
    /// @param party The poster or the performer.
    /// @param isPoster True when `party` is the poster.
    /// @param evidenceHash The commitment to the off-chain evidence.
    event EvidenceSubmitted(uint256 indexed disputeId, address indexed party, bool isPoster, bytes32 evidenceHash);

    /// @notice The resolver decided. Either party may appeal until `appealDeadline`.
    /// @param disputeId The dispute, now Resolved.
    /// @param resolver The resolver who decided (paid RESOLVER_DECISION_FEE from the resolver pool at finalization).
    /// @param outcome The decision.
    /// @param splitPercentage The performer's share of the disputed remainder in percent (Split only, else 0).
    /// @param resolutionHash The commitment to the off-chain reasoning.
    /// @param appealDeadline The end of the appeal window (unix seconds).
    event DisputeResolved(
        uint256 indexed disputeId,
        address indexed resolver,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        bytes32 resolutionHash,
        uint256 appealDeadline
    );

    /// @notice A party appealed and paid the LPP; an appeals resolver must decide by `decisionDeadline`.
    /// @param disputeId The dispute, now Appealed.
    /// @param appellant The party who appealed.
    /// @param lppAmount The LPP pulled from `appellant`, in the token's base units.
    /// @param decisionDeadline The deadline of the appeal decision (unix seconds).
    event DisputeAppealed(
        uint256 indexed disputeId, address indexed appellant, uint256 lppAmount, uint256 decisionDeadline
    );

    /// @notice An appeals resolver decided the appeal; `DisputeFinalized` follows in the same transaction.
    /// @param disputeId The dispute.
    /// @param appealResolver The appeals resolver.
    /// @param outcome The final decision.
    /// @param splitPercentage The performer's share of the disputed remainder in percent (Split only, else 0).
    /// @param resolutionHash The commitment to the off-chain reasoning.
    /// @param overturned True when the outcome or the split differs from the appealed decision.
    event AppealDecided(
        uint256 indexed disputeId,
        address indexed appealResolver,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        bytes32 resolutionHash,
        bool overturned
    );

    /// @notice The dispute ended and every token held for it was paid out.
    /// @param disputeId The dispute, now Finalized.
    /// @param missionId The mission, now Completed or Cancelled.
    /// @param outcome The outcome applied.
    /// @param splitPercentage The performer's share of the disputed remainder in percent (Split only, else 0).
    /// @param missionState The mission's final state: Cancelled for PosterWins, Cancelled and a settlement of 0 to the
    /// performer, else Completed.
    /// @param payout Where the remainder, DDR and LPP went (they sum to all three exactly, with the pool's share in
    /// `poolAmount`), and what the resolver pool paid the deciding resolver (`resolverAmount`, not part of the sum).
    /// @param byDefault True when no resolver decided in time and the default outcome applied.
    event DisputeFinalized(
        uint256 indexed disputeId,
        uint256 indexed missionId,
        Disputes.Outcome outcome,
        uint8 splitPercentage,
        Missions.State missionState,
        Disputes.Payout payout,
        bool byDefault
    );

    /*//////////////////////////////////////////////////////////////
                               FUNCTIONS
    //////////////////////////////////////////////////////////////*/

    /// @notice A party disputes a Submitted mission within its review window and pays the DDR.
    /// @dev Emits `DisputeRaised`. Requirements:
    /// - the mission exists.
    /// - the caller is `initiator` or its operator.
    /// - `initiator` is the mission's poster or performer.
    /// - the mission is Submitted and `block.timestamp < reviewDeadline`.
    /// - the escrow receives exactly `reserveFor(remainingOf(missionId))` from `initiator`.
    /// @param missionId The mission to dispute.
    /// @param initiator The party disputing; pays the DDR.
    /// @param reasonHash The commitment to the off-chain reason (not checked).
    /// @return disputeId The new dispute's id.
    function raiseDispute(uint256 missionId, address initiator, bytes32 reasonHash) external returns (uint256 disputeId);

    /// @notice `resolver` takes a Pending dispute from the queue.
    /// @dev Emits `DisputeAssigned`. Requirements:
    /// - the dispute exists.
    /// - the caller is `resolver` or its operator.
    /// - `resolver` holds RESOLVER_ROLE and is neither the poster nor the performer.
    /// - the dispute is Pending and `block.timestamp < timeoutAt`.
    /// @param disputeId The dispute to take.
    /// @param resolver The resolver who will decide.
    function takeDispute(uint256 disputeId, address resolver) external;

    /// @notice Anyone returns an Investigating dispute whose resolver missed the deadline to Pending.
    /// @dev Emits `DisputeReleased`. Requirements:
    /// - the dispute exists and is Investigating.
    /// - `block.timestamp >= deadline`.
    /// @param disputeId The dispute to release.
    function releaseDispute(uint256 disputeId) external;

    /// @notice A party records the hash of their evidence (latest wins), before a decision is made.
    /// @dev Emits `EvidenceSubmitted`. Requirements:
    /// - the dispute exists and is Pending or Investigating.
    /// - the caller is `party` or its operator.
    /// - `evidenceHash` is not zero.
    /// - `party` is the poster or the performer.
    /// @param disputeId The dispute.
    /// @param party The party the evidence is from.
    /// @param evidenceHash The commitment to the off-chain evidence.
    function submitEvidence(uint256 disputeId, address party, bytes32 evidenceHash) external;

    /// @notice The assigned resolver decides; either party may appeal until the appeal window closes.
    /// @dev Emits `DisputeResolved`. Requirements:
    /// - the dispute exists and is Investigating.
    /// - the caller is the assigned resolver or its operator.
    /// - `block.timestamp < deadline`.
    /// - `splitPercentage` is 1..99 with Split, and 0 with any other outcome but None.
    /// @param disputeId The dispute.
    /// @param outcome The decision (not None).
    /// @param splitPercentage The performer's share of the disputed remainder in percent (Split only, else 0).
    /// @param resolutionHash The commitment to the off-chain reasoning.
    function resolveDispute(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external;

    /// @notice A party appeals a Resolved dispute before its appeal deadline and pays the LPP.
    /// @dev Emits `DisputeAppealed`. Requirements:
    /// - the dispute exists.
    /// - the caller is `appellant` or its operator.
    /// - `appellant` is the poster or the performer.
    /// - the dispute is Resolved and `block.timestamp < deadline`.
    /// - the escrow receives exactly `reserveFor(remainingOf(missionId))` from `appellant`.
    /// @param disputeId The dispute.
    /// @param appellant The party appealing; pays the LPP.
    function appealDispute(uint256 disputeId, address appellant) external;

    /// @notice An appeals resolver decides an appeal. The decision is final: the dispute is finalized and
    /// paid out in the same call.
    /// @dev Emits `AppealDecided`, then `DisputeFinalized`. Requirements:
    /// - the dispute exists.
    /// - the caller holds APPEALS_ROLE itself (no operator), is not a party and is not the resolver whose
    ///   decision is appealed.
    /// - the dispute is Appealed and `block.timestamp < deadline`.
    /// - `splitPercentage` is 1..99 with Split, and 0 with any other outcome but None.
    /// @param disputeId The dispute.
    /// @param outcome The final decision (not None).
    /// @param splitPercentage The performer's share of the disputed remainder in percent (Split only, else 0).
    /// @param resolutionHash The commitment to the off-chain reasoning.
    function decideAppeal(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external;

    /// @notice Anyone finalizes a dispute whose deadline passed: a Resolved one after its appeal window
    /// (the resolver's outcome), an Appealed one nobody decided (the resolver's outcome, LPP refunded),
    /// or one no resolver decided within the dispute timeout (the default outcome).
    /// @dev Emits `DisputeFinalized`. Requirements:
    /// - the dispute exists and is not Finalized.
    /// - Resolved or Appealed: `block.timestamp >= deadline`.
    /// - Pending: `block.timestamp >= timeoutAt`; Investigating: also `>= deadline` (an assigned resolver
    ///   keeps its window to the end).
    /// @param disputeId The dispute to finalize.
    function finalizeDispute(uint256 disputeId) external;
}
