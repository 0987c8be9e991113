// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "forge-std/Vm.sol";

import {PayoutBase} from "./PayoutBase.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {IMissionEscrowState} from "contracts/interfaces/IMissionEscrowState.sol";
import {ISettlements} from "contracts/interfaces/ISettlements.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice offerSettlement, withdrawSettlement and acceptSettlement, before and inside a dispute.
contract SettlementOffers_Test is PayoutBase {
    uint256 internal constant DDR = 5e6;

    function offer(uint256 id, address party, uint256 performerAmount) internal {
        vm.prank(party);
        escrow.offerSettlement(id, party, performerAmount);
    }

    function accept(uint256 id, address party, uint256 performerAmount) internal returns (Missions.Settlement memory) {
        vm.prank(party);
        return escrow.acceptSettlement(id, party, performerAmount);
    }

    /*//////////////////////////////////////////////////////////////
                                 OFFER
    //////////////////////////////////////////////////////////////*/

    function test_Offer_RevertWhen_MissionNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 3));
        escrow.offerSettlement(3, users.poster, 1);
    }

    function test_Offer_RevertWhen_CallerNotParty() external {
        uint256 id = createSubmitted();
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.eve));
        escrow.offerSettlement(id, users.poster, 1);
    }

    function test_Offer_RevertWhen_NotAParty() external {
        uint256 id = createSubmitted();
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, id, users.eve));
        escrow.offerSettlement(id, users.eve, 1);
    }

    function test_Offer_RevertGiven_Accepted() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Accepted));
        escrow.offerSettlement(id, users.poster, 1);
    }

    function test_Offer_RevertGiven_DisputeResolved() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Resolved)
        );
        escrow.offerSettlement(1, users.performer, 1);
    }

    function test_Offer_RevertWhen_AboveRemainder() external {
        uint256 id = createSubmitted();
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, REWARD + 1, REWARD));
        escrow.offerSettlement(id, users.poster, REWARD + 1);
    }

    function test_Offer_RecordsAndReplaces() external {
        uint256 id = createSubmitted();
        vm.expectEmit(address(escrow));
        emit ISettlements.SettlementOffered(id, users.poster, true, 40e6, 60e6);
        offer(id, users.poster, 40e6);
        vm.expectEmit(address(escrow));
        emit ISettlements.SettlementOffered(id, users.performer, false, 90e6, 10e6);
        offer(id, users.performer, 90e6);
        offer(id, users.poster, 0); // replaces; 0 is a valid offer
        (bool a, uint256 x, bool b, uint256 y) = escrow.offersOf(id);
        assertTrue(a && b, "both open");
        assertEq(x, 0, "poster's offer replaced");
        assertEq(y, 90e6, "performer's offer");
    }

    function test_Offer_ByOperator() external {
        uint256 id = createSubmitted();
        approveOperator(users.performer, users.operator);
        vm.prank(users.operator);
        escrow.offerSettlement(id, users.performer, REWARD);
        (,, bool b, uint256 y) = escrow.offersOf(id);
        assertTrue(b && y == REWARD, "offered by the operator");
    }

    /*//////////////////////////////////////////////////////////////
                                WITHDRAW
    //////////////////////////////////////////////////////////////*/

    function test_Withdraw_RevertWhen_NoOffer() external {
        uint256 id = createSubmitted();
        offer(id, users.performer, 1);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NoOffer.selector, id, users.poster));
        escrow.withdrawSettlement(id, users.poster);
    }

    function test_Withdraw_RevertWhen_CallerNotParty() external {
        uint256 id = createSubmitted();
        offer(id, users.poster, 1);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.performer));
        escrow.withdrawSettlement(id, users.poster);
    }

    function test_Withdraw_RevertGiven_Completed() external {
        uint256 id = createSubmitted();
        offer(id, users.poster, 1);
        vm.prank(users.poster);
        escrow.approveMission(id);
        (bool a,,,) = escrow.offersOf(id);
        assertFalse(a, "gone with the approval");
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Completed));
        escrow.withdrawSettlement(id, users.poster);
    }

    function test_Withdraw_ClearsOwnOfferOnly() external {
        uint256 id = createSubmitted();
        offer(id, users.poster, 10e6);
        offer(id, users.performer, 20e6);
        vm.expectEmit(address(escrow));
        emit ISettlements.SettlementWithdrawn(id, users.performer, false);
        vm.prank(users.performer);
        escrow.withdrawSettlement(id, users.performer);
        (bool a, uint256 x, bool b, uint256 y) = escrow.offersOf(id);
        assertTrue(a && x == 10e6, "poster's offer stays");
        assertTrue(!b && y == 0, "performer's offer gone");
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NoOffer.selector, id, users.performer));
        escrow.acceptSettlement(id, users.poster, 20e6);
    }

    function test_Withdraw_GivenDisputeResolved_Allowed() external {
        uint256 disputeId = createInvestigating();
        offer(1, users.performer, 50e6);
        resolve(disputeId, Disputes.Outcome.PerformerWins, 0);
        vm.prank(users.performer);
        escrow.withdrawSettlement(1, users.performer);
        (,, bool b,) = escrow.offersOf(1);
        assertFalse(b, "withdrawn");
    }

    /*//////////////////////////////////////////////////////////////
                          ACCEPT (NO DISPUTE)
    //////////////////////////////////////////////////////////////*/

    function test_Accept_RevertWhen_NoOfferFromTheOtherParty() external {
        uint256 id = createSubmitted();
        offer(id, users.poster, 30e6); // the poster cannot accept its own offer
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NoOffer.selector, id, users.performer));
        escrow.acceptSettlement(id, users.poster, 30e6);
    }

    function test_Accept_RevertWhen_OfferChanged() external {
        uint256 id = createSubmitted();
        offer(id, users.performer, 30e6);
        offer(id, users.performer, 35e6);
        uint256 posterBefore = usdc.balanceOf(users.poster);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_OfferChanged.selector, id, 30e6, 35e6));
        escrow.acceptSettlement(id, users.poster, 30e6);
        assertEq(usdc.balanceOf(users.poster), posterBefore, "nothing sent");
    }

    function test_Accept_RevertWhen_CallerNotParty() external {
        uint256 id = createSubmitted();
        offer(id, users.performer, 30e6);
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.eve));
        escrow.acceptSettlement(id, users.poster, 30e6);
    }

    function test_Accept_RevertGiven_Accepted() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Accepted));
        escrow.acceptSettlement(id, users.poster, 0);
    }

    function test_Accept_RevertGiven_Approved() external {
        uint256 id = createSubmitted();
        offer(id, users.performer, 30e6);
        vm.startPrank(users.poster);
        escrow.approveMission(id); // the race: approval first, the settlement cannot pay again
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Completed));
        escrow.acceptSettlement(id, users.poster, 30e6);
        vm.stopPrank();
    }

    function test_Accept_PosterAcceptsPerformersOffer() external {
        uint256 id = createSubmitted(REWARD, guildId);
        offer(id, users.performer, 70e6);
        Balances memory before = balances();
        Missions.Settlement memory expected = escrow.previewSettlement(70e6, GUILD_FEE_BPS);
        vm.expectEmit(address(escrow));
        emit ISettlements.MissionSettled(id, 0, 70e6, 30e6, expected, Missions.State.Completed);
        Missions.Settlement memory s = accept(id, users.poster, 70e6);
        // 70: treasury 1.4, pool 0.35, labs 0.7, guild 3.5, performer 64.05; poster 30.
        assertEq(s.performerAmount, 64.05e6, "performer");
        Balances memory a = balances();
        assertEq(a.performer - before.performer, 64.05e6, "performer paid");
        assertEq(a.poster - before.poster, 30e6, "poster refunded the rest");
        assertEq(a.protocol - before.protocol, 1.4e6, "treasury (accrued)");
        assertEq(a.labs - before.labs, 0.7e6, "labs (accrued)");
        assertEq(a.pool, 0.35e6, "pool");
        assertEq(escrow.guildFees(guildId), 3.5e6, "guild");
        assertEq(a.escrow, 3.5e6 + 0.35e6 + 1.4e6 + 0.7e6, "escrow: guild fees, pool, protocol and labs fees");
        assertEq(missionOf(id).state, Missions.State.Completed, "Completed");
        (bool x,, bool y,) = escrow.offersOf(id);
        assertFalse(x || y, "offers cleared");
    }

    function test_Accept_PerformerAcceptsZero_Cancelled() external {
        uint256 id = createSubmitted();
        uint256 posterBefore = usdc.balanceOf(users.poster);
        offer(id, users.poster, 0);
        vm.expectEmit(address(escrow));
        emit ISettlements.MissionSettled(
            id, 0, 0, REWARD, Missions.Settlement(0, 0, 0, 0, 0), Missions.State.Cancelled
        );
        accept(id, users.performer, 0);
        assertEq(missionOf(id).state, Missions.State.Cancelled, "Cancelled");
        assertEq(usdc.balanceOf(users.poster) - posterBefore, REWARD, "whole reward back");
        assertEq(usdc.balanceOf(address(escrow)), 0, "escrow empty");
    }

    function test_Accept_AfterReviewDeadline_RacesTheClaim() external {
        uint256 id = createSubmitted();
        offer(id, users.poster, 50e6);
        vm.warp(missionOf(id).reviewDeadline + 1);
        accept(id, users.performer, 50e6);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Completed));
        escrow.claimAfterReview(id);
    }

    function test_Accept_AfterPartialRelease_OnTheRemainder() external {
        uint256 id = createSubmitted();
        vm.prank(users.poster);
        escrow.releasePartial(id, 40e6);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, 60e6 + 1, 60e6));
        escrow.offerSettlement(id, users.performer, 60e6 + 1);
        offer(id, users.performer, 20e6);
        uint256 posterBefore = usdc.balanceOf(users.poster);
        accept(id, users.poster, 20e6);
        assertEq(usdc.balanceOf(users.poster) - posterBefore, 40e6, "poster: the remainder less the offer");
        assertEq(usdc.balanceOf(address(escrow)), accruals(), "nothing else left");
    }

    /*//////////////////////////////////////////////////////////////
                          ACCEPT (IN A DISPUTE)
    //////////////////////////////////////////////////////////////*/

    function test_Offer_SubmittedOfferSurvivesTheDispute() external {
        uint256 id = createSubmitted();
        offer(id, users.performer, 60e6);
        vm.prank(users.poster);
        escrow.raiseDispute(id, users.poster, REASON_HASH);
        (,, bool b, uint256 y) = escrow.offersOf(id);
        assertTrue(b && y == 60e6, "offer still open in the dispute");
    }

    function test_Accept_GivenPendingDispute_NoResolverPaid() external {
        seedPool(10e6);
        uint256 disputeId = createDispute(REWARD, 0, users.performer);
        uint256 id = disputeOf(disputeId).missionId;
        offer(id, users.poster, 25e6);
        Balances memory before = balances();
        vm.recordLogs();
        accept(id, users.performer, 25e6);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        // MissionSettled comes before DisputeFinalized (the indexer skips dispute XP for it).
        uint256 settledAt = type(uint256).max;
        uint256 finalizedAt;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics[0] == ISettlements.MissionSettled.selector) settledAt = i;
            if (logs[i].topics[0] == IDisputeCourt.DisputeFinalized.selector) finalizedAt = i;
            assertTrue(logs[i].topics[0] != IMissionEscrowState.ResolverPaid.selector, "no resolver assigned");
        }
        assertLt(settledAt, finalizedAt, "MissionSettled first");
        (Disputes.Outcome outcome, uint8 split, Missions.State state, Disputes.Payout memory p, bool byDefault) = abi.decode(
            logs[finalizedAt].data, (Disputes.Outcome, uint8, Missions.State, Disputes.Payout, bool)
        );
        assertEq(outcome, Disputes.Outcome.Split, "Split");
        assertEq(split, 25, "split for display");
        assertEq(state, Missions.State.Completed, "Completed");
        assertFalse(byDefault, "not by default");
        assertPayout(before, p, REWARD + DDR);
        // Performer part 25 (treasury 0.5, pool 0.125, labs 0.25, performer 24.125) + its own DDR back.
        expectPayout(p, 75e6, 24.125e6 + DDR, 0.5e6, 0.25e6, 0.125e6, 0);
        assertEq(p.resolver, address(0), "nobody to pay");
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Finalized, "Finalized");
        assertEq(d.outcome, Disputes.Outcome.Split, "stored outcome");
        assertEq(escrow.resolverPool(), 10e6 + 0.125e6, "pool kept");
    }

    function test_Accept_GivenInvestigating_ResolverPaidFromPool() external {
        seedPool(10e6);
        uint256 disputeId = createDispute(REWARD, 0, users.poster);
        uint256 id = disputeOf(disputeId).missionId;
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        offer(id, users.performer, 33e6);
        Balances memory before = balances();
        vm.recordLogs();
        accept(id, users.poster, 33e6);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, REWARD + DDR);
        // Performer part 33: treasury 0.66, pool 0.165, labs 0.33, performer 31.845; poster 67 + its DDR.
        expectPayout(p, 67e6 + DDR, 31.845e6, 0.66e6, 0.33e6, 0.165e6, 5e6);
        assertEq(p.resolver, users.resolver, "the assigned resolver");
        assertEq(disputeOf(disputeId).splitPercentage, 33, "split");
        assertEq(escrow.resolverPool(), 10e6 + 0.165e6 - 5e6, "pool less the decision fee");
    }

    function test_Accept_GivenInvestigating_EmptyPool_ResolverGetsTheShare() external {
        uint256 disputeId = createInvestigating();
        offer(1, users.poster, 0);
        Balances memory before = balances();
        vm.recordLogs();
        accept(1, users.performer, 0);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, REWARD + DDR);
        // Nothing to the performer: Cancelled, the whole reward and its DDR back to the poster, no pool share.
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 0);
        assertEq(p.resolver, users.resolver, "assigned resolver named, paid nothing");
        assertEq(missionOf(1).state, Missions.State.Cancelled, "Cancelled");
        assertEq(disputeOf(disputeId).splitPercentage, 0, "split 0");
    }

    function test_Accept_GivenAppealed_Reverts() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.Split, 40, users.performer);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Appealed)
        );
        escrow.acceptSettlement(1, users.performer, 0);
    }

    function test_Accept_SplitRoundsHalfUp() external {
        uint256 id = createSubmitted(3, 0);
        vm.prank(users.poster);
        uint256 disputeId = escrow.raiseDispute(id, users.poster, REASON_HASH);
        offer(id, users.performer, 2); // 2 of 3 = 66.67 %
        accept(id, users.poster, 2);
        assertEq(disputeOf(disputeId).splitPercentage, 67, "rounded half up for display");
    }

    /// @dev The poster posts, the performer submits, the poster raises a dispute and the two settle for
    /// nothing to the performer: the poster ends exactly where it started.
    function test_PosterSettlesForNothing_BackToWhereItStarted() external {
        uint256 posterStart = usdc.balanceOf(users.poster);
        uint256 disputeId = createDispute();
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        offer(1, users.performer, 0);
        accept(1, users.poster, 0);
        assertEq(usdc.balanceOf(users.poster), posterStart, "poster whole");
    }
}
