// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {GuildRegistry} from "../../../contracts/GuildRegistry.sol";
import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract PublishToBoard_Test is GuildRegistryBase {
    uint256 internal guildMissionId;
    uint256 internal openMissionId;

    function setUp() public override {
        super.setUp();
        guildMissionId = createMission(REWARD, guildId);
        openMissionId = createMission(REWARD, 0);
    }

    function _publish(uint256 missionId, address by) internal {
        vm.prank(by);
        guilds.publishToBoard(guildId, missionId, by, 100, true, "good one");
    }

    function testFuzz_PublishToBoard(uint32 minGuildXP, bool featured, string calldata notes) external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.BoardEntryPublished(guildId, guildMissionId, curator, minGuildXP, featured, notes);
        vm.prank(curator);
        guilds.publishToBoard(guildId, guildMissionId, curator, minGuildXP, featured, notes);
        assertTrue(guilds.isOnBoard(guildId, guildMissionId), "on board");
    }

    function test_PublishToBoard_RepublishUpdates() external {
        _publish(guildMissionId, curator);
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.BoardEntryPublished(guildId, guildMissionId, guildAdmin, 0, false, "");
        vm.prank(guildAdmin);
        guilds.publishToBoard(guildId, guildMissionId, guildAdmin, 0, false, "");
        assertTrue(guilds.isOnBoard(guildId, guildMissionId), "still on board");
    }

    function test_PublishToBoard_ByOperator() external {
        _approveRelayer(curator);
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.BoardEntryPublished(guildId, guildMissionId, curator, 1, false, "x");
        vm.prank(relayer);
        guilds.publishToBoard(guildId, guildMissionId, curator, 1, false, "x");
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 5));
        vm.prank(curator);
        guilds.publishToBoard(5, guildMissionId, curator, 0, false, "");
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, curator, relayer));
        vm.prank(relayer);
        guilds.publishToBoard(guildId, guildMissionId, curator, 0, false, "");
    }

    function test_RevertWhen_CallerNotCurator() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.GuildRegistry_MissingRole.selector, guildId, officer, Guilds.ROLE_CURATOR
            )
        );
        _publish(guildMissionId, officer);
    }

    function test_RevertWhen_CallerNotMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NotMember.selector, guildId, outsider));
        _publish(guildMissionId, outsider);
    }

    function test_RevertWhen_EscrowNotSet() external {
        GuildRegistry fresh = new GuildRegistry(operators, protocolAdmin);
        vm.startPrank(curator);
        uint32 id = fresh.createGuild(curator, "fresh", "", "", "", 0, treasury);
        vm.expectRevert(Errors.GuildRegistry_EscrowNotSet.selector);
        fresh.publishToBoard(id, guildMissionId, curator, 0, false, "");
        vm.stopPrank();
    }

    function test_RevertWhen_MissionNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_MissionNotFound.selector, 999));
        _publish(999, curator);
    }

    function test_RevertWhen_MissionInAnotherGuild() external {
        vm.prank(curator);
        uint32 otherGuild = guilds.createGuild(curator, "other-guild", "", "", "", 0, treasury);
        uint256 missionId = createMission(REWARD, otherGuild);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.GuildRegistry_MissionNotInGuild.selector, guildId, missionId)
        );
        _publish(missionId, curator);
    }

    function test_RevertWhen_MissionNotInGuild() external {
        vm.expectRevert(
            abi.encodeWithSelector(Errors.GuildRegistry_MissionNotInGuild.selector, guildId, openMissionId)
        );
        _publish(openMissionId, curator);
    }
}

contract RemoveFromBoard_Test is GuildRegistryBase {
    uint256 internal guildMissionId;

    function setUp() public override {
        super.setUp();
        guildMissionId = createMission(REWARD, guildId);
        vm.prank(curator);
        guilds.publishToBoard(guildId, guildMissionId, curator, 0, false, "");
    }

    function test_RemoveFromBoard() external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.BoardEntryRemoved(guildId, guildMissionId, guildAdmin);
        vm.prank(guildAdmin);
        guilds.removeFromBoard(guildId, guildMissionId, guildAdmin);
        assertFalse(guilds.isOnBoard(guildId, guildMissionId), "removed");
    }

    function test_RemoveFromBoard_ByOperator() external {
        _approveRelayer(curator);
        vm.prank(relayer);
        guilds.removeFromBoard(guildId, guildMissionId, curator);
        assertFalse(guilds.isOnBoard(guildId, guildMissionId), "removed");
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 3));
        vm.prank(curator);
        guilds.removeFromBoard(3, guildMissionId, curator);
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, curator, outsider));
        vm.prank(outsider);
        guilds.removeFromBoard(guildId, guildMissionId, curator);
    }

    function test_RevertWhen_CallerNotCurator() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.GuildRegistry_MissingRole.selector, guildId, member, Guilds.ROLE_CURATOR
            )
        );
        vm.prank(member);
        guilds.removeFromBoard(guildId, guildMissionId, member);
    }

    function test_RevertWhen_NotOnBoard() external {
        vm.prank(curator);
        guilds.removeFromBoard(guildId, guildMissionId, curator);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.GuildRegistry_NotOnBoard.selector, guildId, guildMissionId)
        );
        vm.prank(curator);
        guilds.removeFromBoard(guildId, guildMissionId, curator);
    }
}
