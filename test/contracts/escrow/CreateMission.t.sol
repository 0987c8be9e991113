// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

contract CreateMission_Test is Base {
    function test_RevertWhen_CallerNotPosterNorOperator() external {
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, users.eve));
        escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_RevertWhen_RewardZero() external {
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_RewardTooSmall.selector, 0, 1));
        escrow.createMission(users.poster, 0, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_RevertWhen_RewardAboveMax() external {
        assertEq(escrow.MAX_REWARD(), type(uint48).max, "48 bits (Missions.Record)");
        uint256 reward = MAX_REWARD + 1;
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_RewardTooLarge.selector, reward, MAX_REWARD));
        escrow.createMission(users.poster, reward, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_RevertWhen_ExpiryTooSoon() external {
        uint256 expiresAt = block.timestamp + 59;
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.MissionEscrow_InvalidExpiry.selector, expiresAt, block.timestamp + 60, block.timestamp + 365 days
            )
        );
        escrow.createMission(users.poster, REWARD, expiresAt, 0, DETAILS_HASH);
    }

    function test_RevertWhen_ExpiryTooLate() external {
        uint256 expiresAt = block.timestamp + 365 days + 1;
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.MissionEscrow_InvalidExpiry.selector, expiresAt, block.timestamp + 60, block.timestamp + 365 days
            )
        );
        escrow.createMission(users.poster, REWARD, expiresAt, 0, DETAILS_HASH);
    }

    function test_RevertWhen_DetailsHashZero() external {
        vm.prank(users.poster);
        vm.expectRevert(Errors.MissionEscrow_EmptyHash.selector);
        escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, bytes32(0));
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_GuildNotFound.selector, uint32(99)));
        escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 99, DETAILS_HASH);
    }

    function test_RevertWhen_AllowanceTooLow() external {
        vm.prank(users.poster);
        usdc.approve(address(escrow), REWARD - 1);
        vm.prank(users.poster);
        vm.expectRevert(); // ERC20InsufficientAllowance
        escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_WhenCallerIsPoster() external {
        uint256 expiresAt = block.timestamp + DURATION;
        uint256 balanceBefore = usdc.balanceOf(users.poster);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.MissionCreated(1, users.poster, 0, REWARD, expiresAt, 0, DETAILS_HASH);
        vm.prank(users.poster);
        uint256 missionId = escrow.createMission(users.poster, REWARD, expiresAt, 0, DETAILS_HASH);

        assertEq(missionId, 1, "first id is 1");
        assertEq(escrow.missionCount(), 1, "missionCount");
        Missions.Mission memory m = missionOf(missionId);
        assertEq(m.poster, users.poster, "poster");
        assertEq(m.reward, REWARD, "reward");
        assertEq(m.expiresAt, expiresAt, "expiresAt");
        assertEq(m.guildId, 0, "guildId");
        assertEq(m.guildFeeBps, 0, "guildFeeBps");
        assertEq(m.performer, address(0), "performer");
        assertEq(m.reviewDeadline, 0, "reviewDeadline");
        assertEq(m.detailsHash, DETAILS_HASH, "detailsHash");
        assertEq(m.state, Missions.State.Open, "state");
        assertEq(usdc.balanceOf(address(escrow)), REWARD, "escrow balance");
        assertEq(usdc.balanceOf(users.poster), balanceBefore - REWARD, "poster balance");
    }

    function test_WhenCallerIsOperator() external {
        approveOperator(users.poster, users.operator);
        vm.prank(users.operator);
        uint256 missionId = escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
        assertEq(missionOf(missionId).poster, users.poster, "poster is the party, not the operator");
    }

    function test_GivenGuild_SnapshotsFee() external {
        uint256 missionId = createMission(REWARD, guildId);
        assertEq(missionOf(missionId).guildFeeBps, GUILD_FEE_BPS, "fee snapshotted");
        // The guild raising its fee later does not change the mission.
        vm.prank(users.guildAdmin);
        guildRegistry.updateGuildSettings(guildId, users.guildAdmin, 1000, users.guildTreasury);
        assertEq(missionOf(missionId).guildFeeBps, GUILD_FEE_BPS, "fee unchanged");
    }

    function test_BoundsInclusive() external {
        vm.startPrank(users.poster);
        escrow.createMission(users.poster, 1, block.timestamp + 60, 0, DETAILS_HASH);
        escrow.createMission(users.poster, 1, block.timestamp + 365 days, 0, DETAILS_HASH);
        vm.stopPrank();
        assertEq(escrow.missionCount(), 2, "both created");
    }

    function testFuzz_CreateMission(uint256 reward, uint256 duration, bool inGuild) external {
        reward = bound(reward, 1, MAX_REWARD);
        duration = bound(duration, 60, 365 days);
        uint32 gid = inGuild ? guildId : 0;
        vm.prank(users.poster);
        uint256 missionId = escrow.createMission(users.poster, reward, block.timestamp + duration, gid, DETAILS_HASH);
        Missions.Mission memory m = missionOf(missionId);
        assertEq(m.reward, reward, "reward");
        assertEq(m.expiresAt, block.timestamp + duration, "expiresAt");
        assertEq(m.guildFeeBps, inGuild ? GUILD_FEE_BPS : 0, "fee");
        assertEq(usdc.balanceOf(address(escrow)), reward, "escrow holds the reward");
    }
}
