// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {BlacklistToken} from "../mocks/BlacklistToken.sol";
import {FeeOnTransferToken} from "../mocks/FeeOnTransferToken.sol";
import {ReentrantToken} from "../mocks/ReentrantToken.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IMissionEscrowState} from "contracts/interfaces/IMissionEscrowState.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice Hostile tokens and payees: fee-on-transfer, reentrancy, blacklisted payees.
contract Adversarial_Test is Base {
    function withToken(address token) internal returns (MissionEscrow e) {
        e = deployEscrow(token);
        vm.prank(users.poster);
        (bool ok,) = token.call(abi.encodeWithSignature("approve(address,uint256)", address(e), type(uint256).max));
        assertTrue(ok, "approve");
        (ok,) = token.call(abi.encodeWithSignature("mint(address,uint256)", users.poster, FUNDS));
        assertTrue(ok, "mint");
    }

    function lifecycleToSubmitted(MissionEscrow e) internal returns (uint256 id) {
        vm.prank(users.poster);
        id = e.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
        vm.prank(users.performer);
        e.acceptMission(id, users.performer, DETAILS_HASH);
        vm.prank(users.performer);
        e.submitProof(id, PROOF_HASH);
    }

    function test_RevertWhen_FeeOnTransferToken() external {
        FeeOnTransferToken fot = new FeeOnTransferToken();
        MissionEscrow e = withToken(address(fot));
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_TransferAmountMismatch.selector, REWARD, REWARD - REWARD / 100)
        );
        e.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_ReentrantToken_CannotReenterDuringPayout() external {
        ReentrantToken rt = new ReentrantToken();
        MissionEscrow e = withToken(address(rt));
        uint256 id = lifecycleToSubmitted(e);
        // On the first payout the token calls approveMission again: the guard must stop it.
        rt.arm(address(e), abi.encodeCall(IMissionEscrow.approveMission, (id)));
        vm.prank(users.poster);
        e.approveMission(id);
        assertTrue(rt.reentered(), "token reentered");
        assertFalse(rt.reentrySucceeded(), "reentrant call failed");
        assertEq(e.getMission(id).state, Missions.State.Completed, "settled once");
        assertEq(rt.balanceOf(users.performer), e.previewSettlement(REWARD, 0).performerAmount, "paid once");
        (uint256 protocolFees, uint256 labsFees) = e.accruedFees();
        assertEq(rt.balanceOf(address(e)), e.resolverPool() + protocolFees + labsFees, "nothing paid twice, nothing left but the accruals");
    }

    function test_ReentrantToken_CannotReenterRefund() external {
        ReentrantToken rt = new ReentrantToken();
        MissionEscrow e = withToken(address(rt));
        vm.prank(users.poster);
        uint256 id = e.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
        vm.warp(block.timestamp + DURATION);
        // The refund push reenters expireMission for the same mission: blocked by the guard.
        rt.arm(address(e), abi.encodeCall(IMissionEscrow.expireMission, (id)));
        e.expireMission(id);
        assertTrue(rt.reentered(), "token reentered");
        assertFalse(rt.reentrySucceeded(), "reentrant call failed");
        assertEq(rt.balanceOf(users.poster), FUNDS, "poster refunded exactly once");
        assertEq(rt.balanceOf(address(e)), 0, "escrow empty");
    }

    function test_BlacklistedPerformer_IsCredited_OthersPaid() external {
        BlacklistToken bt = new BlacklistToken();
        MissionEscrow e = withToken(address(bt));
        uint256 id = lifecycleToSubmitted(e);
        bt.setBlacklisted(users.performer, true);
        Missions.Settlement memory s = e.previewSettlement(REWARD, 0);
        vm.expectEmit(address(e));
        emit IMissionEscrowState.Credited(users.performer, s.performerAmount);
        vm.prank(users.poster);
        e.approveMission(id);
        assertEq(e.credits(users.performer), s.performerAmount, "performer credited");
        (uint256 protocolFees, uint256 labsFees) = e.accruedFees();
        assertEq(protocolFees, s.protocolAmount, "protocol fee accrued");
        assertEq(labsFees, s.labsAmount, "labs fee accrued");
        e.withdrawFees();
        assertEq(bt.balanceOf(users.protocolTreasury), s.protocolAmount, "protocol still paid");
        assertEq(bt.balanceOf(users.labsTreasury), s.labsAmount, "labs still paid");

        vm.expectRevert();
        e.withdraw(users.performer); // still blacklisted: the credit stays
        assertEq(e.credits(users.performer), s.performerAmount, "credit kept");

        bt.setBlacklisted(users.performer, false);
        vm.expectEmit(address(e));
        emit IMissionEscrow.Withdrawn(users.performer, s.performerAmount);
        vm.prank(users.eve); // anyone may trigger it; funds go to the performer only
        e.withdraw(users.performer);
        assertEq(bt.balanceOf(users.performer), s.performerAmount, "performer paid after unblacklisting");
        assertEq(bt.balanceOf(users.eve), 0, "caller got nothing");
        assertEq(bt.balanceOf(address(e)), e.resolverPool(), "escrow holds only the resolver pool");
    }

    /// @dev Issue 40: the fees accrue, so a blacklisted treasury cannot touch a settlement; withdrawFees
    /// pushes each fee like any payout: the blacklisted treasury is credited, the other one is paid.
    function test_BlacklistedTreasury_DoesNotBlockPerformer() external {
        BlacklistToken bt = new BlacklistToken();
        MissionEscrow e = withToken(address(bt));
        uint256 id = lifecycleToSubmitted(e);
        bt.setBlacklisted(users.protocolTreasury, true);
        vm.prank(users.poster);
        Missions.Settlement memory s = e.approveMission(id);
        assertEq(bt.balanceOf(users.performer), s.performerAmount, "performer paid");
        assertEq(e.credits(users.protocolTreasury), 0, "nothing credited at approval: the fee accrues");

        vm.expectEmit(address(e));
        emit IMissionEscrowState.Credited(users.protocolTreasury, s.protocolAmount);
        vm.prank(users.eve); // anyone may trigger it; funds go to the treasuries only
        e.withdrawFees();
        assertEq(bt.balanceOf(users.labsTreasury), s.labsAmount, "labs paid despite the other treasury");
        assertEq(e.credits(users.protocolTreasury), s.protocolAmount, "protocol treasury credited");
        (uint256 protocolFees, uint256 labsFees) = e.accruedFees();
        assertEq(protocolFees + labsFees, 0, "accruals cleared");
        assertEq(bt.balanceOf(users.eve), 0, "caller got nothing");

        bt.setBlacklisted(users.protocolTreasury, false);
        e.withdraw(users.protocolTreasury);
        assertEq(bt.balanceOf(users.protocolTreasury), s.protocolAmount, "treasury paid later");
        assertEq(bt.balanceOf(address(e)), e.resolverPool(), "escrow holds only the resolver pool");
    }

    function test_BlacklistedPoster_RefundCredited() external {
        BlacklistToken bt = new BlacklistToken();
        MissionEscrow e = withToken(address(bt));
        vm.prank(users.poster);
        uint256 id = e.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
        bt.setBlacklisted(users.poster, true);
        vm.warp(block.timestamp + DURATION);
        e.expireMission(id);
        assertEq(e.credits(users.poster), REWARD, "refund credited");
        assertEq(e.getMission(id).state, Missions.State.Expired, "expired anyway");
    }
}
