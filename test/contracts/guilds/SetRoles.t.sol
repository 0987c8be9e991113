// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract SetRoles_Test is GuildRegistryBase {
    function _setRoles(address account, uint8 roles, address by) internal {
        vm.prank(by);
        guilds.setRoles(guildId, account, roles, by);
    }

    function testFuzz_SetRoles_ByAdmin(uint8 roles) external {
        roles = uint8(bound(roles, 0, 7));
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.RolesChanged(guildId, member, 0, roles, guildAdmin);
        _setRoles(member, roles, guildAdmin);
        assertEq(guilds.rolesOf(guildId, member), roles, "roles");
        uint256 expectedAdmins = roles & Guilds.ROLE_ADMIN != 0 ? 2 : 1;
        assertEq(guilds.adminCount(guildId), expectedAdmins, "adminCount");
    }

    function test_SetRoles_AdminDemotesAnotherAdmin() external {
        _setRoles(member, ALL_ROLES, guildAdmin);
        _setRoles(member, Guilds.ROLE_CURATOR, guildAdmin);
        assertEq(guilds.adminCount(guildId), 1, "adminCount back to 1");
        assertEq(guilds.rolesOf(guildId, member), Guilds.ROLE_CURATOR, "curator only");
    }

    function test_SetRoles_AdminDropsOwnAdminBitWhenAnotherAdminRemains() external {
        _setRoles(member, Guilds.ROLE_ADMIN, guildAdmin);
        _setRoles(guildAdmin, Guilds.ROLE_CURATOR, guildAdmin);
        assertEq(guilds.rolesOf(guildId, guildAdmin), Guilds.ROLE_CURATOR, "demoted self");
        assertEq(guilds.adminCount(guildId), 1, "adminCount");
    }

    function test_SetRoles_LastAdminKeepsAdminBitChangingOthers() external {
        _setRoles(guildAdmin, Guilds.ROLE_ADMIN, guildAdmin);
        assertEq(guilds.rolesOf(guildId, guildAdmin), Guilds.ROLE_ADMIN, "admin only");
        assertEq(guilds.adminCount(guildId), 1, "adminCount");
    }

    function test_SetRoles_SameRolesStillEmits() external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.RolesChanged(
            guildId, curator, Guilds.ROLE_CURATOR, Guilds.ROLE_CURATOR, guildAdmin
        );
        _setRoles(curator, Guilds.ROLE_CURATOR, guildAdmin);
    }

    function test_SetRoles_OfficerGrantsAndRevokesCurator() external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.RolesChanged(guildId, member, 0, Guilds.ROLE_CURATOR, officer);
        _setRoles(member, Guilds.ROLE_CURATOR, officer);
        assertEq(guilds.rolesOf(guildId, member), Guilds.ROLE_CURATOR, "granted");
        _setRoles(member, 0, officer);
        assertEq(guilds.rolesOf(guildId, member), 0, "revoked");
    }

    function test_SetRoles_OfficerTogglesCuratorOfOfficer() external {
        _setRoles(officer, Guilds.ROLE_OFFICER | Guilds.ROLE_CURATOR, officer);
        assertEq(
            guilds.rolesOf(guildId, officer), Guilds.ROLE_OFFICER | Guilds.ROLE_CURATOR, "own curator bit"
        );
    }

    /// @dev An officer may change the curator bit of a non-admin, and nothing else.
    function testFuzz_SetRoles_ByOfficer(uint8 roles) external {
        roles = uint8(bound(roles, 0, 7));
        if (roles & ~Guilds.ROLE_CURATOR != 0) {
            vm.expectRevert(
                abi.encodeWithSelector(
                    Errors.GuildRegistry_MissingRole.selector, guildId, officer, Guilds.ROLE_ADMIN
                )
            );
        }
        _setRoles(member, roles, officer);
        if (roles & ~Guilds.ROLE_CURATOR == 0) assertEq(guilds.rolesOf(guildId, member), roles, "roles");
    }

    function test_RevertWhen_OfficerTargetsAdmin() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.GuildRegistry_MissingRole.selector, guildId, officer, Guilds.ROLE_ADMIN
            )
        );
        _setRoles(guildAdmin, Guilds.ROLE_ADMIN | Guilds.ROLE_OFFICER, officer);
    }

    function test_SetRoles_ByOperator() external {
        _approveRelayer(guildAdmin);
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.RolesChanged(guildId, member, 0, Guilds.ROLE_OFFICER, guildAdmin);
        vm.prank(relayer);
        guilds.setRoles(guildId, member, Guilds.ROLE_OFFICER, guildAdmin);
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 2));
        vm.prank(guildAdmin);
        guilds.setRoles(2, member, 1, guildAdmin);
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, guildAdmin, relayer));
        vm.prank(relayer);
        guilds.setRoles(guildId, member, 1, guildAdmin);
    }

    function testFuzz_RevertWhen_InvalidRoles(uint8 roles) external {
        roles = uint8(bound(roles, 8, type(uint8).max));
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_InvalidRoles.selector, roles));
        _setRoles(member, roles, guildAdmin);
    }

    function test_RevertWhen_ByNotMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NotMember.selector, guildId, outsider));
        _setRoles(member, 1, outsider);
    }

    function test_RevertWhen_TargetNotMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NotMember.selector, guildId, outsider));
        _setRoles(outsider, 1, guildAdmin);
    }

    function test_RevertWhen_CallerNotOfficer() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.GuildRegistry_MissingRole.selector, guildId, curator, Guilds.ROLE_OFFICER
            )
        );
        _setRoles(member, Guilds.ROLE_CURATOR, curator);
    }

    function test_RevertWhen_LastAdminDropsAdminBit() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_LastAdmin.selector, guildId, guildAdmin));
        _setRoles(guildAdmin, Guilds.ROLE_OFFICER | Guilds.ROLE_CURATOR, guildAdmin);
    }
}
