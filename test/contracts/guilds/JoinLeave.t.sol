// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "forge-std/Vm.sol";

import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract Join_Test is GuildRegistryBase {
    function test_Join() external {
        vm.warp(1_800_000_000);
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.MemberJoined(guildId, outsider);
        vm.prank(outsider);
        guilds.join(guildId, outsider);

        assertTrue(guilds.isMember(guildId, outsider), "member");
        assertEq(guilds.rolesOf(guildId, outsider), 0, "no role");
        assertEq(guilds.getGuild(guildId).memberCount, 5, "memberCount");
        assertEq(guilds.getMember(guildId, outsider).joinedAt, 1_800_000_000, "joinedAt");
    }

    function test_Join_ByOperator() external {
        _approveRelayer(outsider);
        vm.prank(relayer);
        guilds.join(guildId, outsider);
        assertTrue(guilds.isMember(guildId, outsider), "member");
        assertFalse(guilds.isMember(guildId, relayer), "relayer not member");
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 0));
        vm.prank(outsider);
        guilds.join(0, outsider);
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, outsider, relayer));
        vm.prank(relayer);
        guilds.join(guildId, outsider);
    }

    function test_RevertWhen_OperatorRevoked() external {
        _approveRelayer(outsider);
        vm.prank(outsider);
        operators.setOperator(relayer, false);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, outsider, relayer));
        vm.prank(relayer);
        guilds.join(guildId, outsider);
    }

    function test_RevertWhen_AlreadyMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_AlreadyMember.selector, guildId, member));
        vm.prank(member);
        guilds.join(guildId, member);
    }
}

contract Leave_Test is GuildRegistryBase {
    function test_Leave_PlainMember() external {
        vm.recordLogs();
        vm.prank(member);
        guilds.leave(guildId, member);

        Vm.Log[] memory logs = vm.getRecordedLogs();
        assertEq(logs.length, 1, "one event");
        assertEq(logs[0].topics[0], IGuildRegistry.MemberLeft.selector, "MemberLeft only");
        assertEq(logs[0].topics[2], bytes32(uint256(uint160(member))), "member topic");
        assertFalse(guilds.isMember(guildId, member), "not member");
        assertEq(guilds.getGuild(guildId).memberCount, 3, "memberCount");
    }

    function test_Leave_WithRoles_EmitsRolesChangedFirst() external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.RolesChanged(guildId, officer, Guilds.ROLE_OFFICER, 0, officer);
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.MemberLeft(guildId, officer);
        vm.prank(officer);
        guilds.leave(guildId, officer);
        assertEq(guilds.rolesOf(guildId, officer), 0, "roles cleared");
    }

    function test_Leave_ThenRejoinHasNoRoles() external {
        vm.prank(curator);
        guilds.leave(guildId, curator);
        _join(curator);
        assertEq(guilds.rolesOf(guildId, curator), 0, "roles not restored");
    }

    function test_Leave_AdminWhenAnotherAdminRemains() external {
        vm.prank(guildAdmin);
        guilds.setRoles(guildId, officer, ALL_ROLES, guildAdmin);
        assertEq(guilds.adminCount(guildId), 2, "two admins");
        vm.prank(guildAdmin);
        guilds.leave(guildId, guildAdmin);
        assertEq(guilds.adminCount(guildId), 1, "one admin");
        assertFalse(guilds.isMember(guildId, guildAdmin), "left");
    }

    function test_Leave_ByOperator() external {
        _approveRelayer(member);
        vm.prank(relayer);
        guilds.leave(guildId, member);
        assertFalse(guilds.isMember(guildId, member), "left");
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 7));
        vm.prank(member);
        guilds.leave(7, member);
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, member, guildAdmin));
        vm.prank(guildAdmin);
        guilds.leave(guildId, member);
    }

    function test_RevertWhen_NotMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NotMember.selector, guildId, outsider));
        vm.prank(outsider);
        guilds.leave(guildId, outsider);
    }

    function test_RevertWhen_LastAdmin() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_LastAdmin.selector, guildId, guildAdmin));
        vm.prank(guildAdmin);
        guilds.leave(guildId, guildAdmin);
    }
}
