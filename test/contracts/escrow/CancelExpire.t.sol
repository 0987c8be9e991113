// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice cancelMission and expireMission: the poster's refunds.
contract CancelExpire_Test is Base {
    function test_Cancel_RevertWhen_CallerNotPoster() external {
        uint256 missionId = createOpen();
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_NotPoster.selector, missionId, users.performer)
        );
        escrow.cancelMission(missionId);
    }

    function test_Cancel_RevertGiven_Accepted() external {
        uint256 missionId = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Accepted)
        );
        escrow.cancelMission(missionId);
    }

    function test_Cancel_RevertWhen_MissionNotFound() external {
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 1));
        escrow.cancelMission(1);
    }

    function test_GivenOpen_WhenCancelled() external {
        uint256 missionId = createOpen();
        uint256 before = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionCancelled(missionId, users.poster, REWARD);
        vm.prank(users.poster);
        uint256 refund = escrow.cancelMission(missionId);
        assertEq(refund, REWARD, "refund");
        assertEq(usdc.balanceOf(users.poster) - before, REWARD, "poster refunded");
        assertEq(missionOf(missionId).state, Missions.State.Cancelled, "state");
    }

    function test_GivenOpenAndExpired_WhenCancelled() external {
        uint256 missionId = createOpen();
        vm.warp(block.timestamp + DURATION + 1);
        approveOperator(users.poster, users.operator);
        vm.prank(users.operator);
        escrow.cancelMission(missionId);
        assertEq(missionOf(missionId).state, Missions.State.Cancelled, "an expired Open mission may be cancelled");
        assertEq(usdc.balanceOf(users.operator), 0, "refund goes to the poster");
    }

    /*//////////////////////////////////////////////////////////////
                                EXPIRE
    //////////////////////////////////////////////////////////////*/

    function test_Expire_RevertWhen_NotExpired() external {
        uint256 missionId = createOpen();
        uint256 expiresAt = missionOf(missionId).expiresAt;
        vm.warp(expiresAt - 1);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotExpired.selector, missionId, expiresAt));
        escrow.expireMission(missionId);
    }

    function test_Expire_RevertGiven_Submitted() external {
        uint256 missionId = createSubmitted();
        vm.warp(block.timestamp + 400 days);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Submitted)
        );
        escrow.expireMission(missionId);
    }

    function test_Expire_RevertGiven_Cancelled() external {
        uint256 missionId = createOpen();
        vm.prank(users.poster);
        escrow.cancelMission(missionId);
        vm.warp(block.timestamp + DURATION);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Cancelled)
        );
        escrow.expireMission(missionId);
    }

    function test_GivenOpen_WhenExpired() external {
        uint256 missionId = createOpen();
        vm.warp(block.timestamp + DURATION);
        uint256 before = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionExpired(missionId, users.poster, address(0), REWARD);
        vm.prank(users.eve);
        uint256 refund = escrow.expireMission(missionId);
        assertEq(refund, REWARD, "refund");
        assertEq(usdc.balanceOf(users.poster) - before, REWARD, "poster refunded");
        assertEq(missionOf(missionId).state, Missions.State.Expired, "state");
    }

    function test_GivenAcceptedWithoutProof_WhenExpired() external {
        uint256 missionId = createAccepted(REWARD, 0);
        vm.warp(block.timestamp + DURATION);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionExpired(missionId, users.poster, users.performer, REWARD);
        escrow.expireMission(missionId);
        assertEq(missionOf(missionId).state, Missions.State.Expired, "state");
        assertEq(usdc.balanceOf(address(escrow)), 0, "escrow empty");
    }

    function testFuzz_Expire(uint256 reward, uint256 wait, bool accepted) external {
        reward = bound(reward, 1, MAX_REWARD);
        wait = bound(wait, DURATION, 3650 days);
        uint256 missionId = accepted ? createAccepted(reward, 0) : createMission(reward, 0);
        uint256 before = usdc.balanceOf(users.poster);
        vm.warp(block.timestamp + wait);
        assertEq(escrow.expireMission(missionId), reward, "refund");
        assertEq(usdc.balanceOf(users.poster) - before, reward, "poster refunded");
    }
}
