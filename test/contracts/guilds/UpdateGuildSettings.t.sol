// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract UpdateGuildSettings_Test is GuildRegistryBase {
    address internal newTreasury = makeAddr("NewTreasury");

    function testFuzz_UpdateGuildSettings(uint16 feeBps) external {
        feeBps = uint16(bound(feeBps, 0, 1000));
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.GuildSettingsUpdated(guildId, feeBps, newTreasury);
        vm.prank(guildAdmin);
        guilds.updateGuildSettings(guildId, guildAdmin, feeBps, newTreasury);
        assertEq(guilds.guildFeeBps(guildId), feeBps, "feeBps");
        assertEq(guilds.guildTreasury(guildId), newTreasury, "treasury");
    }

    function test_UpdateGuildSettings_ByOperator() external {
        _approveRelayer(guildAdmin);
        vm.prank(relayer);
        guilds.updateGuildSettings(guildId, guildAdmin, 0, newTreasury);
        assertEq(guilds.guildFeeBps(guildId), 0, "feeBps");
    }

    function test_RevertWhen_GuildNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_GuildNotFound.selector, 9));
        vm.prank(guildAdmin);
        guilds.updateGuildSettings(9, guildAdmin, 0, newTreasury);
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, guildAdmin, outsider));
        vm.prank(outsider);
        guilds.updateGuildSettings(guildId, guildAdmin, 0, newTreasury);
    }

    function test_RevertWhen_CallerNotAdmin() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.GuildRegistry_MissingRole.selector, guildId, officer, Guilds.ROLE_ADMIN
            )
        );
        vm.prank(officer);
        guilds.updateGuildSettings(guildId, officer, 0, newTreasury);
    }

    function test_RevertWhen_CallerNotMember() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NotMember.selector, guildId, outsider));
        vm.prank(outsider);
        guilds.updateGuildSettings(guildId, outsider, 0, newTreasury);
    }

    function testFuzz_RevertWhen_FeeTooHigh(uint16 feeBps) external {
        feeBps = uint16(bound(feeBps, 1001, type(uint16).max));
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_FeeTooHigh.selector, feeBps, 1000));
        vm.prank(guildAdmin);
        guilds.updateGuildSettings(guildId, guildAdmin, feeBps, newTreasury);
    }

    function test_RevertWhen_TreasuryZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        vm.prank(guildAdmin);
        guilds.updateGuildSettings(guildId, guildAdmin, 0, address(0));
    }
}
