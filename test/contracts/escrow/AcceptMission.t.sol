// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice acceptMission and updateDetails (the terms a performer accepts).
contract AcceptMission_Test is Base {
    uint256 internal missionId;

    function setUp() public override {
        super.setUp();
        missionId = createOpen();
    }

    function test_RevertWhen_MissionNotFound() external {
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 0));
        escrow.acceptMission(0, users.performer, DETAILS_HASH);
    }

    function test_RevertWhen_CallerNotPerformerNorOperator() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.performer, users.eve));
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
    }

    function test_RevertWhen_PerformerIsPoster() external {
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_PosterCannotPerform.selector, missionId));
        escrow.acceptMission(missionId, users.poster, DETAILS_HASH);
    }

    function test_RevertWhen_TermsChanged() external {
        bytes32 newHash = keccak256("new details");
        vm.prank(users.poster);
        escrow.updateDetails(missionId, newHash);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_TermsChanged.selector, missionId, DETAILS_HASH, newHash)
        );
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
    }

    function test_RevertWhen_Expired() external {
        vm.warp(block.timestamp + DURATION);
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_Expired.selector, missionId, block.timestamp)
        );
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
    }

    function test_RevertGiven_Accepted() external {
        vm.prank(users.performer);
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Accepted)
        );
        escrow.acceptMission(missionId, users.eve, DETAILS_HASH);
    }

    function test_GivenOpen_WhenAccepted() external {
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionAccepted(missionId, users.performer);
        vm.prank(users.performer);
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
        Missions.Mission memory m = missionOf(missionId);
        assertEq(m.performer, users.performer, "performer");
        assertEq(m.state, Missions.State.Accepted, "state");
    }

    function test_WhenCallerIsPerformerOperator() external {
        approveOperator(users.performer, users.operator);
        vm.prank(users.operator);
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
        assertEq(missionOf(missionId).performer, users.performer, "performer is the party");
    }

    /*//////////////////////////////////////////////////////////////
                             UPDATE DETAILS
    //////////////////////////////////////////////////////////////*/

    function test_UpdateDetails_RevertWhen_CallerNotPoster() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPoster.selector, missionId, users.eve));
        escrow.updateDetails(missionId, keccak256("x"));
    }

    function test_UpdateDetails_RevertWhen_HashZero() external {
        vm.prank(users.poster);
        vm.expectRevert(Errors.MissionEscrow_EmptyHash.selector);
        escrow.updateDetails(missionId, bytes32(0));
    }

    function test_UpdateDetails_RevertGiven_Accepted() external {
        vm.prank(users.performer);
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Accepted)
        );
        escrow.updateDetails(missionId, keccak256("x"));
    }

    function test_UpdateDetails_RevertWhen_Expired() external {
        vm.warp(block.timestamp + DURATION);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_Expired.selector, missionId, block.timestamp));
        escrow.updateDetails(missionId, keccak256("x"));
    }

    function test_UpdateDetails_GivenOpen() external {
        bytes32 newHash = keccak256("x");
        approveOperator(users.poster, users.operator);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionDetailsUpdated(missionId, DETAILS_HASH, newHash);
        vm.prank(users.operator);
        escrow.updateDetails(missionId, newHash);
        assertEq(missionOf(missionId).detailsHash, newHash, "detailsHash");
    }
}
