// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

contract SubmitProof_Test is Base {
    uint256 internal missionId;

    function setUp() public override {
        super.setUp();
        missionId = createAccepted(REWARD, 0);
    }

    function test_RevertWhen_CallerNotPerformer() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, missionId, users.eve));
        escrow.submitProof(missionId, PROOF_HASH);
    }

    function test_RevertGiven_Open() external {
        uint256 openId = createOpen();
        // No performer yet: nobody is the performer.
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, openId, users.performer));
        escrow.submitProof(openId, PROOF_HASH);
    }

    function test_RevertGiven_Submitted() external {
        vm.startPrank(users.performer);
        escrow.submitProof(missionId, PROOF_HASH);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Submitted)
        );
        escrow.submitProof(missionId, PROOF_HASH);
        vm.stopPrank();
    }

    function test_RevertWhen_Expired() external {
        vm.warp(block.timestamp + DURATION);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_Expired.selector, missionId, block.timestamp));
        escrow.submitProof(missionId, PROOF_HASH);
    }

    function test_RevertWhen_ProofHashZero() external {
        vm.prank(users.performer);
        vm.expectRevert(Errors.MissionEscrow_EmptyHash.selector);
        escrow.submitProof(missionId, bytes32(0));
    }

    function test_GivenAccepted_WhenSubmitted() external {
        uint256 reviewDeadline = block.timestamp + 7 days;
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionSubmitted(missionId, PROOF_HASH, reviewDeadline);
        vm.prank(users.performer);
        escrow.submitProof(missionId, PROOF_HASH);
        Missions.Mission memory m = missionOf(missionId);
        assertEq(m.state, Missions.State.Submitted, "state");
        assertEq(m.reviewDeadline, reviewDeadline, "reviewDeadline");
    }

    function test_WhenCallerIsOperator() external {
        approveOperator(users.performer, users.operator);
        vm.prank(users.operator);
        escrow.submitProof(missionId, PROOF_HASH);
        assertEq(missionOf(missionId).state, Missions.State.Submitted, "state");
    }

    function test_ReviewWindowChangeDoesNotMoveDeadline() external {
        vm.prank(users.performer);
        escrow.submitProof(missionId, PROOF_HASH);
        uint256 before = missionOf(missionId).reviewDeadline;
        vm.prank(users.admin);
        escrow.setWindow(Missions.Window.Review, 14 days);
        assertEq(missionOf(missionId).reviewDeadline, before, "in-flight deadline unchanged");
    }

    function testFuzz_SubmitProof(uint256 elapsed) external {
        elapsed = bound(elapsed, 0, DURATION - 1);
        vm.warp(block.timestamp + elapsed);
        vm.prank(users.performer);
        escrow.submitProof(missionId, PROOF_HASH);
        assertEq(missionOf(missionId).reviewDeadline, block.timestamp + 7 days, "reviewDeadline");
    }
}
