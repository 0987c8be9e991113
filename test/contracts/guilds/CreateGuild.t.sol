// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {GuildRegistry} from "../../../contracts/GuildRegistry.sol";
import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {IOperatorRegistry} from "../../../contracts/interfaces/IOperatorRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract CreateGuild_Test is GuildRegistryBase {
    address internal founder = makeAddr("Founder");

    function _create(string memory name, uint16 feeBps, address treasury_) internal returns (uint32) {
        vm.prank(founder);
        return guilds.createGuild(founder, name, "Display", "Description", "category", feeBps, treasury_);
    }

    function test_Constructor() external view {
        assertEq(address(guilds.operators()), address(operators), "operators");
        assertTrue(guilds.hasRole(guilds.DEFAULT_ADMIN_ROLE(), protocolAdmin), "protocol admin");
        assertEq(guilds.MAX_FEE_BPS(), 1000, "MAX_FEE_BPS");
    }

    function test_RevertWhen_ConstructorZeroAddress() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        new GuildRegistry(IOperatorRegistry(address(0)), protocolAdmin);
        vm.expectRevert(Errors.ZeroAddress.selector);
        new GuildRegistry(operators, address(0));
    }

    function test_CreateGuild() external {
        vm.expectEmit(address(guilds));
        emit IGuildRegistry.GuildCreated(
            2, founder, "solar-punks", "Display", "Description", "category", 250, treasury
        );
        uint32 id = _create("solar-punks", 250, treasury);

        assertEq(id, 2, "second guild id");
        assertEq(guilds.guildCount(), 2, "guildCount");
        assertTrue(guilds.guildExists(id), "exists");
        assertEq(guilds.guildFeeBps(id), 250, "feeBps");
        assertEq(guilds.guildTreasury(id), treasury, "treasury");
        assertEq(guilds.guildIdByName("solar-punks"), id, "guildIdByName");
        assertTrue(guilds.isMember(id, founder), "founder is member");
        assertEq(guilds.rolesOf(id, founder), ALL_ROLES, "founder holds every role");
        assertEq(guilds.adminCount(id), 1, "adminCount");
        Guilds.Guild memory guild = guilds.getGuild(id);
        assertEq(guild.memberCount, 1, "memberCount");
        Guilds.Member memory m = guilds.getMember(id, founder);
        assertEq(m.joinedAt, block.timestamp, "joinedAt");
    }

    function test_CreateGuild_FirstIdIsOne() external view {
        assertEq(guildId, 1, "first guild id");
        assertFalse(guilds.guildExists(0), "guild 0 never exists");
    }

    function test_CreateGuild_ByOperator() external {
        vm.prank(founder);
        operators.setOperator(relayer, true);
        vm.prank(relayer);
        uint32 id = guilds.createGuild(founder, "relayed", "", "", "", 0, treasury);
        assertEq(guilds.rolesOf(id, founder), ALL_ROLES, "founder, not relayer, is admin");
        assertFalse(guilds.isMember(id, relayer), "relayer not a member");
    }

    function test_RevertWhen_CallerNotAuthorized() external {
        vm.prank(relayer);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, founder, relayer));
        guilds.createGuild(founder, "relayed", "", "", "", 0, treasury);
    }

    function test_RevertWhen_NameTaken() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_NameTaken.selector, DEFAULT_NAME));
        _create(DEFAULT_NAME, 0, treasury);
    }

    function test_RevertWhen_NameInvalid() external {
        string[9] memory bad = [
            "ab",
            "-abc",
            "abc-",
            "Abc",
            "a b",
            "abc_d",
            "",
            "caf\xc3\xa9",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        ];
        for (uint256 i; i < bad.length; ++i) {
            vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_InvalidName.selector, bad[i]));
            _create(bad[i], 0, treasury);
        }
    }

    function test_CreateGuild_NameBounds() external {
        _create("a-1", 0, treasury);
        _create("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, treasury); // 32 chars
        _create("a--b", 0, treasury);
        assertEq(guilds.guildCount(), 4, "three more guilds");
    }

    /// @dev A random slug of [a-z0-9-] without a leading or trailing hyphen is accepted.
    function testFuzz_CreateGuild_ValidName(bytes32 seed, uint8 length) external {
        length = uint8(bound(length, 3, 32));
        bytes memory alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-";
        bytes memory name = new bytes(length);
        for (uint256 i; i < length; ++i) {
            uint256 pick = uint256(keccak256(abi.encode(seed, i)));
            bool edge = i == 0 || i == length - 1;
            name[i] = alphabet[pick % (edge ? 36 : 37)];
        }
        vm.assume(keccak256(name) != keccak256(bytes(DEFAULT_NAME)));
        uint32 id = _create(string(name), 0, treasury);
        assertEq(guilds.guildIdByName(string(name)), id, "name registered");
    }

    /// @dev Any byte outside [a-z0-9-] in the middle of a name is rejected.
    function testFuzz_RevertWhen_NameHasInvalidByte(bytes1 c) external {
        vm.assume(!((c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "-"));
        string memory name = string(abi.encodePacked("ab", c, "cd"));
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_InvalidName.selector, name));
        _create(name, 0, treasury);
    }

    function testFuzz_CreateGuild_Fee(uint16 feeBps) external {
        feeBps = uint16(bound(feeBps, 0, 1000));
        uint32 id = _create("fee-guild", feeBps, treasury);
        assertEq(guilds.guildFeeBps(id), feeBps, "feeBps");
    }

    function testFuzz_RevertWhen_FeeTooHigh(uint16 feeBps) external {
        feeBps = uint16(bound(feeBps, 1001, type(uint16).max));
        vm.expectRevert(abi.encodeWithSelector(Errors.GuildRegistry_FeeTooHigh.selector, feeBps, 1000));
        _create("fee-guild", feeBps, treasury);
    }

    function test_RevertWhen_TreasuryZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        _create("fee-guild", 0, address(0));
    }
}
