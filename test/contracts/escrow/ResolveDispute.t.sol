// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PayoutBase} from "./PayoutBase.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

contract ResolveDispute_Test is PayoutBase {
    uint256 internal disputeId;

    function setUp() public override {
        super.setUp();
        disputeId = createInvestigating();
    }

    function test_RevertWhen_CallerNotResolver() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotResolver.selector, disputeId, users.eve));
        escrow.resolveDispute(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_RevertGiven_Pending() external {
        uint256 pendingId = createDispute();
        vm.prank(users.resolver);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, pendingId, Disputes.State.Pending)
        );
        escrow.resolveDispute(pendingId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_RevertWhen_DeadlinePassed() external {
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline);
        vm.prank(users.resolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DeadlinePassed.selector, disputeId, deadline));
        escrow.resolveDispute(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_RevertWhen_OutcomeNone() external {
        vm.prank(users.resolver);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidOutcome.selector, Disputes.Outcome.None, 0)
        );
        escrow.resolveDispute(disputeId, Disputes.Outcome.None, 0, RESOLUTION_HASH);
    }

    function test_RevertWhen_SplitOutOfRange() external {
        vm.startPrank(users.resolver);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidOutcome.selector, Disputes.Outcome.Split, 0)
        );
        escrow.resolveDispute(disputeId, Disputes.Outcome.Split, 0, RESOLUTION_HASH);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidOutcome.selector, Disputes.Outcome.Split, 100)
        );
        escrow.resolveDispute(disputeId, Disputes.Outcome.Split, 100, RESOLUTION_HASH);
        vm.stopPrank();
    }

    function test_RevertWhen_PercentageWithoutSplit() external {
        vm.prank(users.resolver);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidOutcome.selector, Disputes.Outcome.PosterWins, 10)
        );
        escrow.resolveDispute(disputeId, Disputes.Outcome.PosterWins, 10, RESOLUTION_HASH);
    }

    function test_GivenInvestigating_WhenResolved() external {
        uint256 appealDeadline = block.timestamp + 3 days;
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.DisputeResolved(
            disputeId, users.resolver, Disputes.Outcome.Split, 40, RESOLUTION_HASH, appealDeadline
        );
        resolve(disputeId, Disputes.Outcome.Split, 40);
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Resolved, "state");
        assertEq(d.outcome, Disputes.Outcome.Split, "outcome");
        assertEq(d.splitPercentage, 40, "split");
        assertEq(d.resolutionHash, RESOLUTION_HASH, "resolutionHash");
        assertEq(d.deadline, appealDeadline, "appeal deadline");
        assertEq(missionOf(d.missionId).state, Missions.State.Disputed, "mission still Disputed");
    }

    function test_WhenResolverOperatorResolves() external {
        approveOperator(users.resolver, users.operator);
        vm.prank(users.operator);
        escrow.resolveDispute(disputeId, Disputes.Outcome.Cancelled, 0, RESOLUTION_HASH);
        assertEq(disputeOf(disputeId).state, Disputes.State.Resolved, "state");
    }

    function testFuzz_Resolve(uint8 outcomeRaw, uint8 split, uint256 elapsed) external {
        Disputes.Outcome outcome = Disputes.Outcome(bound(outcomeRaw, 1, 4));
        split = outcome == Disputes.Outcome.Split ? uint8(bound(split, 1, 99)) : 0;
        elapsed = bound(elapsed, 0, 3 days - 1);
        vm.warp(block.timestamp + elapsed);
        resolve(disputeId, outcome, split);
        assertEq(disputeOf(disputeId).outcome, outcome, "outcome");
        assertEq(disputeOf(disputeId).deadline, block.timestamp + 3 days, "appeal deadline");
    }
}
