// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ISettlements} from "../interfaces/ISettlements.sol";
import {Errors} from "../libraries/Errors.sol";
import {SettlementMath} from "../libraries/SettlementMath.sol";
import {Missions, Disputes} from "../types/DataTypes.sol";
import {DisputeCourt} from "./DisputeCourt.sol";

/// @title Settlements
/// @notice Settlement offers between the parties, before or during a dispute. See ISettlements.
/// @dev Abstract: deployed only as part of MissionEscrow. Closes disputes through DisputeCourt's
/// `_closeDispute`, so a settled dispute pays out like any other.
abstract contract Settlements is ISettlements, DisputeCourt {
    /// @inheritdoc ISettlements
    function offerSettlement(uint256 missionId, address party, uint256 performerAmount) external {
        Missions.Record storage m = _mission(missionId);
        _checkParty(party);
        bool byPoster = _isPoster(missionId, m, party);
        _checkSettleable(missionId, m);
        uint256 remainder = _remainder(m);
        if (performerAmount > remainder) revert Errors.MissionEscrow_InvalidAmount(performerAmount, remainder);
        Missions.Offers storage o = _offers[missionId];
        if (byPoster) (o.posterOffered, o.posterPerformerAmount) = (true, uint64(performerAmount));
        else (o.performerOffered, o.performerPerformerAmount) = (true, uint64(performerAmount));
        emit SettlementOffered(missionId, party, byPoster, performerAmount, remainder - performerAmount);
    }

    /// @inheritdoc ISettlements
    function withdrawSettlement(uint256 missionId, address party) external {
        Missions.Record storage m = _mission(missionId);
        _checkParty(party);
        bool byPoster = _isPoster(missionId, m, party);
        Missions.State state = m.state;
        if (state != Missions.State.Submitted && state != Missions.State.Disputed) {
            revert Errors.MissionEscrow_InvalidState(missionId, state);
        }
        Missions.Offers storage o = _offers[missionId];
        if (!(byPoster ? o.posterOffered : o.performerOffered)) revert Errors.MissionEscrow_NoOffer(missionId, party);
        if (byPoster) (o.posterOffered, o.posterPerformerAmount) = (false, 0);
        else (o.performerOffered, o.performerPerformerAmount) = (false, 0);
        emit SettlementWithdrawn(missionId, party, byPoster);
    }

    /// @inheritdoc ISettlements
    function acceptSettlement(uint256 missionId, address party, uint256 performerAmount)
        external
        nonReentrant
        returns (Missions.Settlement memory settlement)
    {
        // Checks
        Missions.Record storage m = _mission(missionId);
        _checkParty(party);
        bool byPoster = _isPoster(missionId, m, party);
        _checkSettleable(missionId, m);
        Missions.Offers memory o = _offers[missionId];
        (bool offered, uint256 offer) = byPoster
            ? (o.performerOffered, uint256(o.performerPerformerAmount))
            : (o.posterOffered, uint256(o.posterPerformerAmount));
        if (!offered) revert Errors.MissionEscrow_NoOffer(missionId, byPoster ? m.performer : m.poster);
        if (offer != performerAmount) revert Errors.MissionEscrow_OfferChanged(missionId, performerAmount, offer);

        // Effects (an offer is at most the remainder: a release or refund clears the offers)
        delete _offers[missionId];
        uint256 remainder = _remainder(m);
        uint256 posterAmount = remainder - performerAmount;
        Missions.State state = performerAmount == 0 ? Missions.State.Cancelled : Missions.State.Completed;
        uint256 disputeId = m.state == Missions.State.Disputed ? disputeOf[missionId] : 0;
        settlement = SettlementMath.settle(performerAmount, m.guildFeeBps);
        emit MissionSettled(missionId, disputeId, performerAmount, posterAmount, settlement, state);

        if (disputeId == 0) {
            m.state = state;
            _accrue(m, settlement);
            // Interactions
            _push(m.performer, settlement.performerAmount);
            _push(m.poster, posterAmount);
        } else {
            Disputes.Dispute storage d = _disputes[disputeId];
            d.outcome = Disputes.Outcome.Split;
            d.splitPercentage = SettlementMath.percentOf(performerAmount, remainder);
            Disputes.Payout memory p = SettlementMath.disputePayout(
                SettlementMath.DisputeTerms({
                    reward: remainder,
                    ddr: d.ddrAmount,
                    lpp: 0, // only Pending or Investigating: no appeal yet
                    guildFeeBps: m.guildFeeBps,
                    outcome: Disputes.Outcome.Split,
                    performerPart: performerAmount,
                    initiatorIsPoster: d.initiator == m.poster,
                    appeal: SettlementMath.Appeal.None,
                    appellantIsPoster: false
                })
            );
            // An assigned resolver is paid from the pool as for a decision.
            _closeDispute(disputeId, d, m, p, state, d.state == Disputes.State.Investigating, false);
        }
    }

    /// @dev True when `party` is the poster, false when it is the performer; reverts for anyone else.
    function _isPoster(uint256 missionId, Missions.Record storage m, address party) internal view returns (bool) {
        if (party == m.poster) return true;
        if (party != _performerOf(m) || party == address(0)) revert Errors.MissionEscrow_NotParty(missionId, party);
        return false;
    }

    /// @dev Offers can be made and accepted: the mission is Submitted, or Disputed with the dispute Pending
    /// or Investigating.
    function _checkSettleable(uint256 missionId, Missions.Record storage m) internal view {
        Missions.State state = m.state;
        if (state == Missions.State.Submitted) return;
        if (state != Missions.State.Disputed) revert Errors.MissionEscrow_InvalidState(missionId, state);
        uint256 disputeId = disputeOf[missionId];
        Disputes.State disputeState = _disputes[disputeId].state;
        if (disputeState != Disputes.State.Pending && disputeState != Disputes.State.Investigating) {
            revert Errors.MissionEscrow_InvalidDisputeState(disputeId, disputeState);
        }
    }
}
