// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHandler, Ghosts} from "./BaseHandler.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Drives issue 39's money in trouble: partial releases and refunds, settlement offers, their
/// withdrawal and acceptance (before a dispute, and inside one with or without an assigned resolver).
/// Each action `x` runs `this.doX` (see BaseHandler): the escrow call does what the model predicts.
contract SettlementHandler is BaseHandler {
    constructor(
        MissionEscrow escrow_,
        TestStablecoin usdc_,
        Ghosts ghosts_,
        address[] memory actors_,
        address[] memory resolvers_,
        address appealsResolver_,
        uint32 guildId_
    ) BaseHandler(escrow_, usdc_, ghosts_, actors_, resolvers_, appealsResolver_, guildId_) {}

    /*//////////////////////////////////////////////////////////////
                    ACTIONS (the fuzzer's targets)
    //////////////////////////////////////////////////////////////*/

    function releasePartial(uint256 seed, uint256 amount, bool accepted) external {
        run("releasePartial", abi.encodeCall(this.doReleasePartial, (seed, amount, accepted)));
    }

    function refundPartial(uint256 seed, uint256 amount, bool accepted) external {
        run("refundPartial", abi.encodeCall(this.doRefundPartial, (seed, amount, accepted)));
    }

    function offerSettlement(uint256 seed, uint256 amount, bool byPoster, bool inDispute) external {
        run("offerSettlement", abi.encodeCall(this.doOfferSettlement, (seed, amount, byPoster, inDispute)));
    }

    function withdrawSettlement(uint256 seed, bool byPoster) external {
        run("withdrawSettlement", abi.encodeCall(this.doWithdrawSettlement, (seed, byPoster)));
    }

    function acceptSettlement(uint256 seed, uint256 amount, bool byPoster, uint8 where) external {
        run("acceptSettlement", abi.encodeCall(this.doAcceptSettlement, (seed, amount, byPoster, where)));
    }

    /*//////////////////////////////////////////////////////////////
                 BODIES (called by the actions only)
    //////////////////////////////////////////////////////////////*/

    function doReleasePartial(uint256 seed, uint256 amount, bool accepted) external {
        uint256 id = partable(seed, accepted, "releasePartial");
        Missions.Mission memory m = mission(id);
        uint256 remainder = escrow.remainingOf(id);
        amount = _bound(amount, 1, remainder);
        if (misuse(seed, "releasePartial")) {
            callEscrow(STRANGER, abi.encodeCall(escrow.releasePartial, (id, amount)), Errors.MissionEscrow_NotPoster.selector);
        }
        if (misuse(seed ^ 1, "releasePartial")) {
            callEscrow(
                m.poster, abi.encodeCall(escrow.releasePartial, (id, remainder + 1)), Errors.MissionEscrow_InvalidAmount.selector
            );
        }
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        Missions.Settlement memory s = abi.decode(
            callEscrow(m.poster, abi.encodeCall(escrow.releasePartial, (id, amount)), 0), (Missions.Settlement)
        );
        ghosts.count("releasePartial", false);
        if (s.performerAmount + s.protocolAmount + s.guildAmount + s.labsAmount + s.resolverAmount != amount) {
            ghosts.flagMismatch();
        }
        moved(id, m.state, remainder - amount, Missions.State.Completed, amount, balanceBefore, elsewhereBefore);
    }

    function doRefundPartial(uint256 seed, uint256 amount, bool accepted) external {
        uint256 id = partable(seed, accepted, "refundPartial");
        Missions.Mission memory m = mission(id);
        uint256 remainder = escrow.remainingOf(id);
        amount = _bound(amount, 1, remainder);
        if (misuse(seed, "refundPartial")) {
            callEscrow(STRANGER, abi.encodeCall(escrow.refundPartial, (id, amount)), Errors.MissionEscrow_NotPerformer.selector);
        }
        if (misuse(seed ^ 1, "refundPartial")) {
            callEscrow(m.performer, abi.encodeCall(escrow.refundPartial, (id, 0)), Errors.MissionEscrow_InvalidAmount.selector);
        }
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        callEscrow(m.performer, abi.encodeCall(escrow.refundPartial, (id, amount)), 0);
        ghosts.count("refundPartial", false);
        moved(id, m.state, remainder - amount, Missions.State.Cancelled, amount, balanceBefore, elsewhereBefore);
    }

    function doOfferSettlement(uint256 seed, uint256 amount, bool byPoster, bool inDispute) external {
        uint256 id = settleable(seed, inDispute, "offerSettlement");
        Missions.Mission memory m = mission(id);
        uint256 remainder = escrow.remainingOf(id);
        amount = _bound(amount, 0, remainder);
        address party = byPoster ? m.poster : m.performer;
        if (misuse(seed, "offerSettlement")) {
            callEscrow(
                STRANGER,
                abi.encodeCall(escrow.offerSettlement, (id, STRANGER, amount)),
                Errors.MissionEscrow_NotParty.selector
            );
        }
        if (misuse(seed ^ 1, "offerSettlement")) {
            callEscrow(
                party,
                abi.encodeCall(escrow.offerSettlement, (id, party, remainder + 1)),
                Errors.MissionEscrow_InvalidAmount.selector
            );
        }
        uint256 balanceBefore = usdc.balanceOf(address(escrow));
        callEscrow(party, abi.encodeCall(escrow.offerSettlement, (id, party, amount)), 0);
        ghosts.count("offerSettlement", false);
        (bool a, uint256 x, bool b, uint256 y) = escrow.offersOf(id);
        if (byPoster ? !(a && x == amount) : !(b && y == amount)) ghosts.flagIllegal();
        if (usdc.balanceOf(address(escrow)) != balanceBefore || mission(id).state != m.state) ghosts.flagIllegal();
    }

    function doWithdrawSettlement(uint256 seed, bool byPoster) external {
        uint256 id = settleable(seed, seed % 2 == 0, "withdrawSettlement");
        Missions.Mission memory m = mission(id);
        address party = byPoster ? m.poster : m.performer;
        (bool a,, bool b,) = escrow.offersOf(id);
        if (!(byPoster ? a : b)) {
            // Nothing to withdraw: now and then the escrow must say so; else the party offers first.
            if (misuse(seed ^ 1, "withdrawSettlement")) {
                callEscrow(
                    party, abi.encodeCall(escrow.withdrawSettlement, (id, party)), Errors.MissionEscrow_NoOffer.selector
                );
            }
            ghosts.countBuilt("withdrawSettlement");
            uint256 amount = _bound(seed, 0, escrow.remainingOf(id)); // before the prank: it binds the next call
            vm.prank(party);
            escrow.offerSettlement(id, party, amount);
        }
        if (misuse(seed, "withdrawSettlement")) {
            callEscrow(
                STRANGER, abi.encodeCall(escrow.withdrawSettlement, (id, party)), Errors.Unauthorized.selector
            );
        }
        callEscrow(party, abi.encodeCall(escrow.withdrawSettlement, (id, party)), 0);
        ghosts.count("withdrawSettlement", false);
        (a,, b,) = escrow.offersOf(id);
        if (byPoster ? a : b) ghosts.flagIllegal();
    }

    /// @dev `where`: 0 before a dispute, 1 in a Pending dispute, 2 with an assigned resolver.
    function doAcceptSettlement(uint256 seed, uint256 amount, bool byPoster, uint8 where) external {
        uint256 id = acceptable(seed, amount, byPoster, where % 3);
        Missions.Mission memory m = mission(id);
        address party = byPoster ? m.poster : m.performer;
        (, uint256 posterOffer,, uint256 performerOffer) = escrow.offersOf(id);
        uint256 offer = byPoster ? performerOffer : posterOffer;
        if (misuse(seed, "acceptSettlement")) {
            callEscrow(
                party,
                abi.encodeCall(escrow.acceptSettlement, (id, party, offer + 1)),
                Errors.MissionEscrow_OfferChanged.selector
            );
        }
        uint256 disputeId = m.state == Missions.State.Disputed ? escrow.disputeOf(id) : 0;
        uint256 held = escrow.remainingOf(id);
        if (disputeId != 0) held += dispute(disputeId).ddrAmount; // no LPP: Pending or Investigating only
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        Missions.Settlement memory s = abi.decode(
            callEscrow(party, abi.encodeCall(escrow.acceptSettlement, (id, party, offer)), 0), (Missions.Settlement)
        );
        ghosts.count("acceptSettlement", false);
        if (s.performerAmount + s.protocolAmount + s.guildAmount + s.labsAmount + s.resolverAmount != offer) {
            ghosts.flagMismatch();
        }
        checkReleased(balanceBefore, elsewhereBefore, held);
        ghosts.markPaid(id);
        Missions.State state = mission(id).state;
        if (state != (offer == 0 ? Missions.State.Cancelled : Missions.State.Completed)) ghosts.flagIllegal();
        checkTransition(m.state, state);
        seeMission(id);
        if (disputeId != 0) {
            Disputes.Dispute memory d = dispute(disputeId);
            checkDisputeTransition(where % 3 == 2 ? Disputes.State.Investigating : Disputes.State.Pending, d.state);
            if (d.state != Disputes.State.Finalized || d.outcome != Disputes.Outcome.Split) ghosts.flagIllegal();
            ghosts.markDisputePaid(disputeId);
            seeDispute(disputeId);
        }
        (bool a,, bool b,) = escrow.offersOf(id);
        if (a || b) ghosts.flagIllegal();
    }

    /*//////////////////////////////////////////////////////////////
                          TARGETS AND CHECKS
    //////////////////////////////////////////////////////////////*/

    /// @dev An Accepted or Submitted mission with something left (built if none).
    function partable(uint256 seed, bool accepted, bytes32 action) internal returns (uint256 id) {
        id = findMission(seed, accepted ? Missions.State.Accepted : Missions.State.Submitted);
        if (id == 0) {
            ghosts.countBuilt(action);
            id = accepted ? newAccepted(seed) : newSubmitted(seed);
        }
    }

    /// @dev A Submitted mission, or a Disputed one whose dispute is Pending or Investigating (built if none).
    function settleable(uint256 seed, bool inDispute, bytes32 action) internal returns (uint256 id) {
        if (inDispute) {
            uint256 disputeId = findDispute(seed, Disputes.State.Pending);
            if (disputeId == 0) disputeId = findDispute(seed, Disputes.State.Investigating);
            if (disputeId != 0) return dispute(disputeId).missionId;
            ghosts.countBuilt(action);
            return dispute(newDispute(seed)).missionId;
        }
        id = findMission(seed, Missions.State.Submitted);
        if (id == 0) {
            ghosts.countBuilt(action);
            id = newSubmitted(seed);
        }
    }

    /// @dev A mission where the other party than the acceptor has an open offer; made if there is none.
    function acceptable(uint256 seed, uint256 amount, bool byPoster, uint8 where) internal returns (uint256 id) {
        if (where == 0) {
            id = findMission(seed, Missions.State.Submitted);
            if (id == 0) id = newSubmitted(seed);
        } else {
            uint256 disputeId = findDispute(seed, where == 1 ? Disputes.State.Pending : Disputes.State.Investigating);
            if (disputeId == 0) disputeId = where == 1 ? newDispute(seed) : newInvestigating(seed);
            id = dispute(disputeId).missionId;
        }
        (bool a,, bool b,) = escrow.offersOf(id);
        if (!(byPoster ? b : a)) {
            // The other party offers first (the builder's step, not the action judged).
            ghosts.countBuilt("acceptSettlement");
            Missions.Mission memory m = mission(id);
            address author = byPoster ? m.performer : m.poster;
            amount = _bound(amount, 0, escrow.remainingOf(id)); // before the prank: it binds the next call
            vm.prank(author);
            escrow.offerSettlement(id, author, amount);
        }
    }

    /// @dev After a partial move of `amount`: what left matches it, the remainder, and the state (`whenZero`
    /// once nothing is left; then the mission counts as paid).
    function moved(
        uint256 id,
        Missions.State from,
        uint256 remaining,
        Missions.State whenZero,
        uint256 amount,
        uint256 balanceBefore,
        uint256 elsewhereBefore
    ) internal {
        checkReleased(balanceBefore, elsewhereBefore, amount);
        if (escrow.remainingOf(id) != remaining) ghosts.flagMismatch();
        Missions.State state = mission(id).state;
        if (state != (remaining == 0 ? whenZero : from)) ghosts.flagIllegal();
        if (remaining == 0) ghosts.markPaid(id);
        checkTransition(from, state);
        if (from == Missions.State.Submitted && remaining != 0) {
            (bool a,, bool b,) = escrow.offersOf(id);
            if (a || b) ghosts.flagIllegal(); // a partial move clears the offers
        }
        seeMission(id);
    }
}
