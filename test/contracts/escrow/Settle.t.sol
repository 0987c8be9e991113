// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice approveMission and claimAfterReview: the two ways a Submitted mission settles.
contract Settle_Test is Base {
    function assertSettled(Missions.Settlement memory s, uint256 reward, uint16 feeBps) internal view {
        uint256 protocolShare = reward * 250 / 10_000;
        assertEq(s.resolverAmount, protocolShare * 2000 / 10_000, "pool: 20% of the protocol's 2.5%");
        assertEq(s.protocolAmount, protocolShare - s.resolverAmount, "treasury: the rest of the protocol's 2.5%");
        assertEq(s.labsAmount, reward * 100 / 10_000, "labs 1%");
        assertEq(s.guildAmount, reward * feeBps / 10_000, "guild fee");
        assertEq(escrow.resolverPool(), s.resolverAmount, "pool funded");
        assertEq(
            s.performerAmount + s.protocolAmount + s.labsAmount + s.guildAmount + s.resolverAmount,
            reward,
            "five shares sum to the reward"
        );
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        assertEq(protocolFees, s.protocolAmount, "protocol accrued");
        assertEq(labsFees, s.labsAmount, "labs accrued");
        assertEq(usdc.balanceOf(users.protocolTreasury), 0, "protocol not pushed (issue 40)");
        assertEq(usdc.balanceOf(users.labsTreasury), 0, "labs not pushed (issue 40)");
        assertEq(escrow.guildFees(feeBps == 0 ? 0 : guildId), s.guildAmount, "guild accrued");
    }

    function test_RevertWhen_CallerNotPoster() external {
        uint256 missionId = createSubmitted();
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPoster.selector, missionId, users.eve));
        escrow.approveMission(missionId);
    }

    function test_RevertGiven_Accepted() external {
        uint256 missionId = createAccepted(REWARD, 0);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Accepted)
        );
        escrow.approveMission(missionId);
    }

    function test_RevertGiven_Completed() external {
        uint256 missionId = createSubmitted();
        vm.startPrank(users.poster);
        escrow.approveMission(missionId);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Completed)
        );
        escrow.approveMission(missionId);
        vm.stopPrank();
    }

    function test_GivenSubmitted_WhenApproved() external {
        uint256 missionId = createSubmitted();
        uint256 performerBefore = usdc.balanceOf(users.performer);
        Missions.Settlement memory expected = escrow.previewSettlement(REWARD, 0);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionCompleted(missionId, expected, false);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(missionId);
        assertEq(s.performerAmount, 96.5e6, "performer 96.5%");
        assertSettled(s, REWARD, 0);
        assertEq(usdc.balanceOf(users.performer) - performerBefore, s.performerAmount, "performer paid");
        assertEq(missionOf(missionId).state, Missions.State.Completed, "state");
        assertEq(s.resolverAmount, 0.5e6, "pool 0.5%");
        assertEq(s.protocolAmount, 2e6, "treasury 2%");
        assertEq(usdc.balanceOf(address(escrow)), 0.5e6 + 2e6 + 1e6, "escrow holds only the pool and the accrued fees");
    }

    function test_GivenGuildMission_WhenApproved() external {
        uint256 missionId = createSubmitted(REWARD, guildId);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(missionId);
        assertEq(s.guildAmount, 5e6, "guild 5%");
        assertSettled(s, REWARD, GUILD_FEE_BPS);
        assertEq(usdc.balanceOf(address(escrow)), 5e6 + 0.5e6 + 2e6 + 1e6, "escrow holds guild fees, the pool, protocol and labs fees");
    }

    function test_WhenApprovedAfterReviewWindow() external {
        uint256 missionId = createSubmitted();
        vm.warp(block.timestamp + 30 days);
        vm.prank(users.poster);
        escrow.approveMission(missionId);
        assertEq(missionOf(missionId).state, Missions.State.Completed, "poster may still approve");
    }

    function test_WhenOperatorApproves_PaysPerformerNotOperator() external {
        uint256 missionId = createSubmitted();
        approveOperator(users.poster, users.operator);
        vm.prank(users.operator);
        escrow.approveMission(missionId);
        assertEq(usdc.balanceOf(users.operator), 0, "operator got nothing");
    }

    function testFuzz_Approve(uint256 reward, bool inGuild) external {
        reward = bound(reward, 1, MAX_REWARD);
        uint256 missionId = createSubmitted(reward, inGuild ? guildId : 0);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(missionId);
        assertSettled(s, reward, inGuild ? GUILD_FEE_BPS : 0);
        assertEq(
            usdc.balanceOf(address(escrow)),
            s.guildAmount + s.resolverAmount + s.protocolAmount + s.labsAmount,
            "escrow holds guild fees, the pool, protocol and labs fees"
        );
    }

    /*//////////////////////////////////////////////////////////////
                          CLAIM AFTER REVIEW
    //////////////////////////////////////////////////////////////*/

    function test_Claim_RevertWhen_ReviewWindowOpen() external {
        uint256 missionId = createSubmitted();
        uint256 deadline = missionOf(missionId).reviewDeadline;
        vm.warp(deadline - 1);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_ReviewWindowOpen.selector, missionId, deadline)
        );
        escrow.claimAfterReview(missionId);
    }

    function test_Claim_RevertGiven_Accepted() external {
        uint256 missionId = createAccepted(REWARD, 0);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, missionId, Missions.State.Accepted)
        );
        escrow.claimAfterReview(missionId);
    }

    function test_Claim_RevertWhen_MissionNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_MissionNotFound.selector, 7));
        escrow.claimAfterReview(7);
    }

    function test_GivenReviewLapsed_WhenAnyoneClaims() external {
        uint256 missionId = createSubmitted();
        vm.warp(missionOf(missionId).reviewDeadline);
        Missions.Settlement memory expected = escrow.previewSettlement(REWARD, 0);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionCompleted(missionId, expected, true);
        vm.prank(users.eve);
        Missions.Settlement memory s = escrow.claimAfterReview(missionId);
        assertSettled(s, REWARD, 0);
        assertEq(missionOf(missionId).state, Missions.State.Completed, "state");
    }

    function testFuzz_Claim(uint256 reward, uint256 wait) external {
        reward = bound(reward, 1, MAX_REWARD);
        wait = bound(wait, 7 days, 3650 days);
        uint256 missionId = createSubmitted(reward, 0);
        vm.warp(block.timestamp + wait);
        Missions.Settlement memory s = escrow.claimAfterReview(missionId);
        assertSettled(s, reward, 0);
    }
}
