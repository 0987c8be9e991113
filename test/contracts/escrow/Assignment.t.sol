// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {Base} from "../Base.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice takeDispute, releaseDispute and submitEvidence.
contract Assignment_Test is Base {
    uint256 internal disputeId;

    function setUp() public override {
        super.setUp();
        disputeId = createDispute();
    }

    function test_Take_RevertWhen_DisputeNotFound() external {
        vm.prank(users.resolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DisputeNotFound.selector, 9));
        escrow.takeDispute(9, users.resolver);
    }

    function test_Take_RevertWhen_CallerNotResolverNorOperator() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.resolver, users.eve));
        escrow.takeDispute(disputeId, users.resolver);
    }

    function test_Take_RevertWhen_ResolverLacksRole() external {
        bytes32 role = escrow.RESOLVER_ROLE();
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, users.eve, role)
        );
        escrow.takeDispute(disputeId, users.eve);
    }

    function test_Take_RevertWhen_ResolverIsParty() external {
        bytes32 role = escrow.RESOLVER_ROLE();
        vm.prank(users.admin);
        escrow.grantRole(role, users.performer);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_ResolverIsParty.selector, disputeId, users.performer)
        );
        escrow.takeDispute(disputeId, users.performer);
    }

    function test_Take_RevertGiven_Investigating() external {
        vm.startPrank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Investigating
            )
        );
        escrow.takeDispute(disputeId, users.resolver);
        vm.stopPrank();
    }

    function test_Take_RevertWhen_TimedOut() external {
        uint256 timeoutAt = disputeOf(disputeId).timeoutAt;
        vm.warp(timeoutAt);
        vm.prank(users.resolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DeadlinePassed.selector, disputeId, timeoutAt));
        escrow.takeDispute(disputeId, users.resolver);
    }

    function test_GivenPending_WhenTaken() external {
        uint256 deadline = block.timestamp + 3 days;
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.DisputeAssigned(disputeId, users.resolver, deadline);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Investigating, "state");
        assertEq(d.resolver, users.resolver, "resolver");
        assertEq(d.deadline, deadline, "deadline");
    }

    function test_WhenOperatorTakesForResolver() external {
        approveOperator(users.resolver, users.operator);
        vm.prank(users.operator);
        escrow.takeDispute(disputeId, users.resolver);
        assertEq(disputeOf(disputeId).resolver, users.resolver, "resolver is the role holder");
    }

    /*//////////////////////////////////////////////////////////////
                                RELEASE
    //////////////////////////////////////////////////////////////*/

    function test_Release_RevertGiven_Pending() external {
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Pending)
        );
        escrow.releaseDispute(disputeId);
    }

    function test_Release_RevertWhen_DeadlineNotReached() external {
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline - 1);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_DeadlineNotReached.selector, disputeId, deadline)
        );
        escrow.releaseDispute(disputeId);
    }

    function test_GivenResolverMissedDeadline_WhenReleased() external {
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        vm.warp(disputeOf(disputeId).deadline);
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.DisputeReleased(disputeId, users.resolver);
        vm.prank(users.eve);
        escrow.releaseDispute(disputeId);
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Pending, "Pending again");
        assertEq(d.resolver, address(0), "no resolver");
        assertEq(d.deadline, d.timeoutAt, "deadline back to the timeout");
        // Another resolver may take it.
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
    }

    /*//////////////////////////////////////////////////////////////
                                EVIDENCE
    //////////////////////////////////////////////////////////////*/

    function test_Evidence_RevertWhen_CallerNotParty() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.eve));
        escrow.submitEvidence(disputeId, users.poster, EVIDENCE_HASH);
    }

    function test_Evidence_RevertWhen_NotParty() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, 1, users.eve));
        escrow.submitEvidence(disputeId, users.eve, EVIDENCE_HASH);
    }

    function test_Evidence_RevertWhen_HashZero() external {
        vm.prank(users.poster);
        vm.expectRevert(Errors.MissionEscrow_EmptyHash.selector);
        escrow.submitEvidence(disputeId, users.poster, bytes32(0));
    }

    function test_Evidence_RevertGiven_Resolved() external {
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.PosterWins, 0);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Resolved)
        );
        escrow.submitEvidence(disputeId, users.poster, EVIDENCE_HASH);
    }

    function test_WhenPartiesSubmitEvidence() external {
        bytes32 second = keccak256("more");
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.EvidenceSubmitted(disputeId, users.poster, true, EVIDENCE_HASH);
        vm.prank(users.poster);
        escrow.submitEvidence(disputeId, users.poster, EVIDENCE_HASH);

        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.EvidenceSubmitted(disputeId, users.performer, false, second);
        vm.prank(users.performer);
        escrow.submitEvidence(disputeId, users.performer, second);

        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.posterEvidenceHash, EVIDENCE_HASH, "poster evidence");
        assertEq(d.performerEvidenceHash, second, "performer evidence");
    }
}
