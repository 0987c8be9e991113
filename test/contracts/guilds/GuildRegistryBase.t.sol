// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {GuildRegistry} from "../../../contracts/GuildRegistry.sol";
import {Guilds} from "../../../contracts/types/DataTypes.sol";
import {Base} from "../Base.t.sol";

/// @notice Actors and the default guild for the GuildRegistry tests, on the shared marketplace of `Base`
/// (real OperatorRegistry and MissionEscrow). The default guild ("builders") has GuildAdmin (every role),
/// Officer (officer), Curator (curator) and Member (no role).
abstract contract GuildRegistryBase is Base {
    uint16 internal constant DEFAULT_FEE_BPS = GUILD_FEE_BPS;
    string internal constant DEFAULT_NAME = "builders";
    uint8 internal constant ALL_ROLES = Guilds.ROLE_CURATOR | Guilds.ROLE_OFFICER | Guilds.ROLE_ADMIN;

    address internal officer = makeAddr("Officer");
    address internal curator = makeAddr("Curator");
    address internal member = makeAddr("Member");
    address internal outsider = makeAddr("Outsider");
    address internal relayer = makeAddr("Relayer");

    GuildRegistry internal guilds;
    address internal protocolAdmin;
    address internal guildAdmin;
    address internal treasury;
    address internal poster;

    function setUp() public virtual override {
        Base.setUp();
        guilds = guildRegistry;
        protocolAdmin = users.admin;
        guildAdmin = users.guildAdmin;
        treasury = users.guildTreasury;
        poster = users.poster;

        _join(officer);
        _join(curator);
        _join(member);
        vm.startPrank(guildAdmin);
        guilds.setRoles(guildId, officer, Guilds.ROLE_OFFICER, guildAdmin);
        guilds.setRoles(guildId, curator, Guilds.ROLE_CURATOR, guildAdmin);
        vm.stopPrank();
    }

    function _join(address account) internal {
        vm.prank(account);
        guilds.join(guildId, account);
    }

    function _approveRelayer(address user) internal {
        vm.prank(user);
        operators.setOperator(relayer, true);
    }
}
