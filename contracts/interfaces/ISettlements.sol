// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDisputeCourt} from "./IDisputeCourt.sol";
import {Missions} from "../types/DataTypes.sol";

/// @title ISettlements
/// @notice Settlement offers between the two parties, before or during a dispute: either party offers an
/// amount of the remainder for the performer (the poster gets the rest), the other accepts it by echoing
/// the amount, and the remainder is paid at once. Part of IMissionEscrow; the escrow is one contract.
/// @dev Offers can be made and accepted while the mission is Submitted, or Disputed with the dispute
/// Pending or Investigating. Each party has at most one open offer (a new one replaces it). Offers are
/// cleared by an acceptance and by a partial release or refund (the remainder changed), and are gone once
/// the mission leaves Submitted and Disputed (`offersOf` shows none).
interface ISettlements is IDisputeCourt {
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A party offered (or replaced its offer) to settle the remainder.
    /// @param missionId The mission.
    /// @param party The poster or the performer.
    /// @param byPoster True when `party` is the poster.
    /// @param performerAmount What the performer would get of the remainder (gross, before fees).
    /// @param posterAmount What the poster would get back: remainder − performerAmount.
    event SettlementOffered(
        uint256 indexed missionId, address indexed party, bool byPoster, uint256 performerAmount, uint256 posterAmount
    );

    /// @notice A party withdrew its open offer.
    /// @param missionId The mission.
    /// @param party The poster or the performer.
    /// @param byPoster True when `party` is the poster.
    event SettlementWithdrawn(uint256 indexed missionId, address indexed party, bool byPoster);

    /// @notice An offer was accepted and the remainder paid: the performer's part settled as on approval,
    /// the rest refunded to the poster. Inside a dispute, `DisputeFinalized` (outcome Split, DDR back to
    /// the initiator) follows in the same transaction.
    /// @param missionId The mission, now `state`.
    /// @param disputeId The dispute closed by the settlement, 0 if none.
    /// @param performerAmount The performer's part of the remainder (gross, before fees).
    /// @param posterAmount The poster's part: remainder − performerAmount.
    /// @param settlement The five shares of `performerAmount`; they sum to it exactly.
    /// @param state Completed, or Cancelled when `performerAmount` is 0.
    event MissionSettled(
        uint256 indexed missionId,
        uint256 indexed disputeId,
        uint256 performerAmount,
        uint256 posterAmount,
        Missions.Settlement settlement,
        Missions.State state
    );

    /*//////////////////////////////////////////////////////////////
                               FUNCTIONS
    //////////////////////////////////////////////////////////////*/

    /// @notice `party` offers to settle the remainder with `performerAmount` to the performer, replacing its
    /// earlier offer.
    /// @dev Emits `SettlementOffered`. Requirements, checked in this order:
    /// - the mission exists.
    /// - the caller is `party` or its operator.
    /// - `party` is the poster or the performer.
    /// - the mission is Submitted, or Disputed with the dispute Pending or Investigating.
    /// - `performerAmount <= remainingOf(missionId)`.
    /// @param missionId The mission.
    /// @param party The party offering.
    /// @param performerAmount What the performer would get of the remainder (0 is a valid offer).
    function offerSettlement(uint256 missionId, address party, uint256 performerAmount) external;

    /// @notice `party` withdraws its open offer.
    /// @dev Emits `SettlementWithdrawn`. Requirements, checked in this order:
    /// - the mission exists.
    /// - the caller is `party` or its operator.
    /// - `party` is the poster or the performer.
    /// - the mission is Submitted or Disputed (any dispute state).
    /// - `party` has an open offer.
    /// @param missionId The mission.
    /// @param party The party withdrawing.
    function withdrawSettlement(uint256 missionId, address party) external;

    /// @notice `party` accepts the other party's open offer, whose amount it echoes, and the remainder is
    /// paid at once. Inside a dispute the dispute is finalized as a Split (the percentage derived from the
    /// amounts, rounded half up, for display), the DDR goes back to the initiator and an assigned resolver
    /// is paid from the resolver pool.
    /// @dev Emits `MissionSettled`, and inside a dispute `DisputeFinalized` then `ResolverPaid` (when an
    /// assigned resolver was paid). Requirements, checked in this order:
    /// - the mission exists.
    /// - the caller is `party` or its operator.
    /// - `party` is the poster or the performer.
    /// - the mission is Submitted, or Disputed with the dispute Pending or Investigating.
    /// - the other party has an open offer (`MissionEscrow_NoOffer` names the other party).
    /// - its amount is `performerAmount` (else `MissionEscrow_OfferChanged`).
    /// @param missionId The mission.
    /// @param party The party accepting (not the offer's author).
    /// @param performerAmount The amount of the offer accepted, echoed.
    /// @return settlement The five shares of `performerAmount`.
    function acceptSettlement(uint256 missionId, address party, uint256 performerAmount)
        external
        returns (Missions.Settlement memory settlement);
}
