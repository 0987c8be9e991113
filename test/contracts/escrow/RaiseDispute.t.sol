// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

contract RaiseDispute_Test is Base {
    uint256 internal missionId;

    function setUp() public override {
        super.setUp();
        missionId = createSubmitted();
    }

    function test_RevertWhen_CallerNotInitiatorNorOperator() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.eve));
        escrow.raiseDispute(missionId, users.poster, REASON_HASH);
    }

    function test_RevertWhen_InitiatorNotParty() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, missionId, users.eve));
        escrow.raiseDispute(missionId, users.eve, REASON_HASH);
    }

    function test_RevertGiven_Accepted() external {
        uint256 acceptedId = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, acceptedId, Missions.State.Accepted)
        );
        escrow.raiseDispute(acceptedId, users.poster, REASON_HASH);
    }

    function test_RevertWhen_ReviewWindowClosed() external {
        uint256 deadline = missionOf(missionId).reviewDeadline;
        vm.warp(deadline);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_ReviewWindowClosed.selector, missionId, deadline)
        );
        escrow.raiseDispute(missionId, users.poster, REASON_HASH);
    }

    function test_RevertGiven_Disputed() external {
        vm.prank(users.poster);
        escrow.raiseDispute(missionId, users.poster, REASON_HASH);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Disputed)
        );
        escrow.raiseDispute(missionId, users.performer, REASON_HASH);
    }

    function test_GivenSubmitted_WhenPosterDisputes() external {
        uint256 ddr = 5e6; // 5% of 100 USDC
        uint256 before = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.DisputeRaised(1, missionId, users.poster, ddr, REASON_HASH);
        vm.prank(users.poster);
        uint256 disputeId = escrow.raiseDispute(missionId, users.poster, REASON_HASH);

        assertEq(disputeId, 1, "first dispute id is 1");
        assertEq(escrow.disputeOf(missionId), disputeId, "disputeOf");
        assertEq(escrow.disputeCount(), 1, "disputeCount");
        assertEq(missionOf(missionId).state, Missions.State.Disputed, "mission state");
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Pending, "dispute state");
        assertEq(d.missionId, missionId, "missionId");
        assertEq(d.initiator, users.poster, "initiator");
        assertEq(d.raisedAt, block.timestamp, "raisedAt");
        assertEq(d.ddrAmount, ddr, "ddr");
        assertEq(d.timeoutAt, block.timestamp + 30 days, "timeoutAt");
        assertEq(d.deadline, d.timeoutAt, "pending deadline is the timeout");
        assertEq(before - usdc.balanceOf(users.poster), ddr, "DDR pulled");
        assertEq(usdc.balanceOf(address(escrow)), REWARD + ddr, "escrow holds reward and DDR");
    }

    function test_GivenSmallReward_DDRIsMinimum() external {
        uint256 smallId = createSubmitted(1, 0);
        vm.prank(users.performer);
        uint256 disputeId = escrow.raiseDispute(smallId, users.performer, REASON_HASH);
        assertEq(disputeOf(disputeId).ddrAmount, 1e6, "DDR at least 1 USDC");
    }

    function test_WhenOperatorDisputesForPerformer() external {
        approveOperator(users.performer, users.operator);
        vm.prank(users.operator);
        uint256 disputeId = escrow.raiseDispute(missionId, users.performer, REASON_HASH);
        assertEq(disputeOf(disputeId).initiator, users.performer, "initiator is the party");
    }

    function testFuzz_RaiseDispute(uint256 reward, uint256 elapsed, bool byPoster) external {
        reward = bound(reward, 1, MAX_REWARD);
        elapsed = bound(elapsed, 0, 7 days - 1);
        uint256 id = createSubmitted(reward, 0);
        vm.warp(block.timestamp + elapsed);
        address initiator = byPoster ? users.poster : users.performer;
        vm.prank(initiator);
        uint256 disputeId = escrow.raiseDispute(id, initiator, REASON_HASH);
        uint256 expectedDdr = reward * 500 / 10_000 < 1e6 ? 1e6 : reward * 500 / 10_000;
        assertEq(disputeOf(disputeId).ddrAmount, expectedDdr, "ddr");
        assertEq(escrow.reserveFor(reward), expectedDdr, "reserveFor");
    }
}
