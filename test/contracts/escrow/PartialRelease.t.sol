// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PayoutBase} from "./PayoutBase.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice releasePartial and refundPartial: money leaves an Accepted or Submitted mission in parts, and
/// every later step (approve, claim, expiry, dispute) acts on the remainder.
contract PartialRelease_Test is PayoutBase {
    /*//////////////////////////////////////////////////////////////
                                RELEASE
    //////////////////////////////////////////////////////////////*/

    function test_Release_RevertWhen_MissionNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 9));
        escrow.releasePartial(9, 1);
    }

    function test_Release_RevertWhen_CallerNotPoster() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPoster.selector, id, users.performer));
        escrow.releasePartial(id, 1);
    }

    function test_Release_RevertGiven_Open() external {
        uint256 id = createOpen();
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Open));
        escrow.releasePartial(id, 1);
    }

    function test_Release_RevertGiven_Disputed() external {
        createDispute();
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, 1, Missions.State.Disputed));
        escrow.releasePartial(1, 1);
    }

    function test_Release_RevertGiven_Completed() external {
        uint256 id = createSubmitted();
        vm.startPrank(users.poster);
        escrow.approveMission(id);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Completed));
        escrow.releasePartial(id, 1);
        vm.stopPrank();
    }

    function test_Release_RevertWhen_AmountZero() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, 0, REWARD));
        escrow.releasePartial(id, 0);
    }

    function test_Release_RevertWhen_AmountAboveRemainder() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.startPrank(users.poster);
        escrow.releasePartial(id, 30e6);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, 70e6 + 1, 70e6));
        escrow.releasePartial(id, 70e6 + 1);
        vm.stopPrank();
    }

    function test_Release_GivenAccepted_SettlesAsApproval() external {
        uint256 id = createAccepted(REWARD, guildId);
        Balances memory before = balances();
        Missions.Settlement memory expected = escrow.previewSettlement(40e6, GUILD_FEE_BPS);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionReleased(id, users.performer, 40e6, expected, 60e6);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.releasePartial(id, 40e6);
        // 40: treasury 0.8, pool 0.2, labs 0.4, guild 2, performer 36.6.
        assertEq(s.performerAmount, 36.6e6, "performer");
        assertEq(s.protocolAmount, 0.8e6, "treasury");
        assertEq(s.resolverAmount, 0.2e6, "pool");
        assertEq(s.labsAmount, 0.4e6, "labs");
        assertEq(s.guildAmount, 2e6, "guild");
        Balances memory a = balances();
        assertEq(a.performer - before.performer, 36.6e6, "performer paid");
        assertEq(a.protocol - before.protocol, 0.8e6, "treasury accrued");
        assertEq(a.labs - before.labs, 0.4e6, "labs accrued");
        assertEq(a.pool, 0.2e6, "pool funded");
        assertEq(escrow.guildFees(guildId), 2e6, "guild accrued");
        Missions.Mission memory m = missionOf(id);
        assertEq(m.state, Missions.State.Accepted, "still Accepted");
        assertEq(m.released, 40e6, "released");
        assertEq(m.refunded, 0, "refunded");
        assertEq(m.reward, REWARD, "reward unchanged");
        assertEq(escrow.remainingOf(id), 60e6, "remaining");
        assertEq(a.escrow, 60e6 + 2e6 + 0.2e6 + 0.8e6 + 0.4e6, "escrow: remainder + guild fees + pool + protocol and labs fees");
    }

    function test_Release_GivenAcceptedPastExpiry_Allowed() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.warp(missionOf(id).expiresAt + 1 days);
        vm.prank(users.poster);
        escrow.releasePartial(id, 10e6);
        assertEq(escrow.remainingOf(id), 90e6, "released past expiry");
        // Then the keeper expires it: the poster gets the remainder only.
        uint256 posterBefore = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionExpired(id, users.poster, users.performer, 90e6);
        assertEq(escrow.expireMission(id), 90e6, "refund of the remainder");
        assertEq(usdc.balanceOf(users.poster) - posterBefore, 90e6, "poster refunded the remainder");
        assertEq(escrow.remainingOf(id), 0, "nothing left");
        assertEq(usdc.balanceOf(address(escrow)), accruals(), "escrow holds only the accruals");
    }

    function test_Release_WholeRemainder_Completes() external {
        uint256 id = createSubmitted();
        vm.startPrank(users.poster);
        escrow.releasePartial(id, 25e6);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionReleased(id, users.performer, 75e6, escrow.previewSettlement(75e6, 0), 0);
        escrow.releasePartial(id, 75e6);
        vm.stopPrank();
        assertEq(missionOf(id).state, Missions.State.Completed, "Completed");
        assertEq(missionOf(id).released, REWARD, "all released");
        assertEq(escrow.remainingOf(id), 0, "none left");
    }

    function test_Release_ThenApprove_SettlesTheRemainder() external {
        uint256 id = createSubmitted();
        uint256 performerBefore = usdc.balanceOf(users.performer);
        vm.startPrank(users.poster);
        Missions.Settlement memory s1 = escrow.releasePartial(id, 33_333_333);
        Missions.Settlement memory expected = escrow.previewSettlement(REWARD - 33_333_333, 0);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionCompleted(id, expected, false);
        Missions.Settlement memory s2 = escrow.approveMission(id);
        vm.stopPrank();
        assertEq(usdc.balanceOf(users.performer) - performerBefore, s1.performerAmount + s2.performerAmount, "paid");
        assertEq(usdc.balanceOf(address(escrow)), accruals(), "nothing else left");
        assertEq(escrow.resolverPool(), s1.resolverAmount + s2.resolverAmount, "pool: both shares");
    }

    function test_Release_ThenClaim_SettlesTheRemainder() external {
        uint256 id = createSubmitted();
        vm.prank(users.poster);
        escrow.releasePartial(id, 60e6);
        vm.warp(missionOf(id).reviewDeadline);
        Missions.Settlement memory s = escrow.claimAfterReview(id);
        assertEq(
            s.performerAmount + s.protocolAmount + s.labsAmount + s.guildAmount + s.resolverAmount, 40e6, "remainder"
        );
    }

    function test_Release_ByOperator() external {
        uint256 id = createAccepted(REWARD, 0);
        approveOperator(users.poster, users.operator);
        vm.prank(users.operator);
        escrow.releasePartial(id, 1);
        assertEq(missionOf(id).released, 1, "released by the operator");
        assertEq(usdc.balanceOf(users.operator), 0, "operator got nothing");
    }

    function test_Release_OneBaseUnit_NoFees() external {
        uint256 id = createAccepted(REWARD, guildId);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.releasePartial(id, 1);
        assertEq(s.performerAmount, 1, "fees round down to 0: the performer gets the unit");
        assertEq(escrow.resolverPool(), 0, "pool untouched");
    }

    function test_Release_ClearsOffers() external {
        uint256 id = createSubmitted();
        vm.prank(users.performer);
        escrow.offerSettlement(id, users.performer, 80e6);
        vm.prank(users.poster);
        escrow.releasePartial(id, 10e6);
        (bool a,, bool b,) = escrow.offersOf(id);
        assertFalse(a || b, "offers cleared: the remainder changed");
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NoOffer.selector, id, users.performer));
        escrow.acceptSettlement(id, users.poster, 80e6);
    }

    /*//////////////////////////////////////////////////////////////
                                REFUND
    //////////////////////////////////////////////////////////////*/

    function test_Refund_RevertWhen_MissionNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 9));
        escrow.refundPartial(9, 1);
    }

    function test_Refund_RevertWhen_CallerNotPerformer() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, id, users.poster));
        escrow.refundPartial(id, 1);
    }

    function test_Refund_RevertGiven_Open() external {
        uint256 id = createOpen();
        // No performer yet: nobody can act as one.
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, id, users.performer));
        escrow.refundPartial(id, 1);
    }

    function test_Refund_RevertGiven_Disputed() external {
        createDispute();
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, 1, Missions.State.Disputed));
        escrow.refundPartial(1, 1);
    }

    function test_Refund_RevertGiven_Expired() external {
        uint256 id = createAccepted(REWARD, 0);
        vm.warp(missionOf(id).expiresAt);
        escrow.expireMission(id);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Expired));
        escrow.refundPartial(id, 1);
    }

    function test_Refund_RevertWhen_AmountInvalid() external {
        uint256 id = createSubmitted();
        vm.startPrank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, 0, REWARD));
        escrow.refundPartial(id, 0);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidAmount.selector, REWARD + 1, REWARD));
        escrow.refundPartial(id, REWARD + 1);
        vm.stopPrank();
    }

    function test_Refund_GivenSubmitted_PaysPoster() external {
        uint256 id = createSubmitted();
        uint256 posterBefore = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionRefunded(id, users.poster, 15e6, 85e6);
        vm.prank(users.performer);
        escrow.refundPartial(id, 15e6);
        assertEq(usdc.balanceOf(users.poster) - posterBefore, 15e6, "poster refunded, no fees");
        Missions.Mission memory m = missionOf(id);
        assertEq(m.state, Missions.State.Submitted, "still Submitted");
        assertEq(m.refunded, 15e6, "refunded");
        assertEq(escrow.remainingOf(id), 85e6, "remaining");
        assertEq(escrow.resolverPool(), 0, "no pool share on a refund");
    }

    function test_Refund_WholeRemainder_Cancels() external {
        uint256 id = createAccepted(REWARD, 0);
        uint256 posterBefore = usdc.balanceOf(users.poster);
        vm.prank(users.poster);
        escrow.releasePartial(id, 20e6);
        vm.prank(users.performer);
        escrow.refundPartial(id, 80e6);
        assertEq(missionOf(id).state, Missions.State.Cancelled, "Cancelled");
        assertEq(usdc.balanceOf(users.poster), posterBefore + 80e6, "poster got the remainder back");
        assertEq(usdc.balanceOf(address(escrow)), accruals(), "nothing else left");
    }

    function test_Refund_ByOperator() external {
        uint256 id = createAccepted(REWARD, 0);
        approveOperator(users.performer, users.operator);
        vm.prank(users.operator);
        escrow.refundPartial(id, 5);
        assertEq(missionOf(id).refunded, 5, "refunded by the operator");
    }

    function test_Refund_ThenDispute_ReservesOnTheRemainder() external {
        uint256 id = createSubmitted();
        vm.prank(users.performer);
        escrow.refundPartial(id, 80e6);
        // DDR = 5 % of the 20 left = 1 USDC (the floor); a 100 USDC mission would have cost 5.
        uint256 posterBefore = usdc.balanceOf(users.poster);
        vm.prank(users.poster);
        uint256 disputeId = escrow.raiseDispute(id, users.poster, REASON_HASH);
        assertEq(disputeOf(disputeId).ddrAmount, 1e6, "DDR on the remainder");
        assertEq(posterBefore - usdc.balanceOf(users.poster), 1e6, "DDR pulled");
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.Split, 50);
        vm.prank(users.performer);
        escrow.appealDispute(disputeId, users.performer);
        assertEq(disputeOf(disputeId).lppAmount, 1e6, "LPP on the remainder");
        vm.warp(disputeOf(disputeId).deadline);
        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, 20e6 + 2e6);
        // Split 50 of the 20 left: performer part 10 (treasury 0.2, pool 0.05, labs 0.1, performer 9.65 + its LPP).
        expectPayout(p, 10e6 + 1e6, 9.65e6 + 1e6, 0.2e6, 0.1e6, 0.05e6, 0.05e6);
    }
}
