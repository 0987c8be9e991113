// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {GuildRegistry} from "../../../contracts/GuildRegistry.sol";
import {IGuildRegistry} from "../../../contracts/interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "../../../contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {GuildRegistryBase} from "./GuildRegistryBase.t.sol";

contract SetEscrow_Test is GuildRegistryBase {
    GuildRegistry internal fresh;

    function setUp() public override {
        super.setUp();
        fresh = new GuildRegistry(operators, protocolAdmin);
    }

    function test_SetEscrow() external {
        vm.expectEmit(address(fresh));
        emit IGuildRegistry.EscrowSet(address(escrow));
        vm.prank(protocolAdmin);
        fresh.setEscrow(IMissionEscrow(address(escrow)));
        assertEq(address(fresh.escrow()), address(escrow), "escrow");
    }

    function test_RevertWhen_CallerNotProtocolAdmin() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector,
                guildAdmin,
                fresh.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(guildAdmin);
        fresh.setEscrow(IMissionEscrow(address(escrow)));
    }

    function test_RevertWhen_EscrowZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        vm.prank(protocolAdmin);
        fresh.setEscrow(IMissionEscrow(address(0)));
    }

    function test_RevertWhen_EscrowAlreadySet() external {
        vm.expectRevert(
            abi.encodeWithSelector(Errors.GuildRegistry_EscrowAlreadySet.selector, address(escrow))
        );
        vm.prank(protocolAdmin);
        guilds.setEscrow(IMissionEscrow(makeAddr("OtherEscrow")));
    }
}
