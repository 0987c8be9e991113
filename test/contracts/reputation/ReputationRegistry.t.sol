// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "forge-std/Test.sol";

import {ReputationRegistry} from "../../../contracts/ReputationRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";

/// @notice Actors for the ReputationRegistry tests: a provider and a referrer (the relayer) hold their roles.
abstract contract ReputationRegistryBase is Test {
    address internal admin = makeAddr("ProtocolAdmin");
    address internal provider = makeAddr("Provider");
    address internal relayer = makeAddr("Relayer");
    address internal builder = makeAddr("Builder");
    address internal referrer = makeAddr("Referrer");
    address internal referee = makeAddr("Referee");
    address internal outsider = makeAddr("Outsider");

    ReputationRegistry internal reputation;

    function setUp() public virtual {
        reputation = new ReputationRegistry(admin);
        vm.startPrank(admin);
        reputation.grantRole(reputation.PROVIDER_ROLE(), provider);
        reputation.grantRole(reputation.REFERRER_ROLE(), relayer);
        vm.stopPrank();
    }
}

contract Constructor_Test is ReputationRegistryBase {
    function test_Constructor() external view {
        assertTrue(reputation.hasRole(reputation.DEFAULT_ADMIN_ROLE(), admin), "admin");
        assertEq(reputation.PROVIDER_ROLE(), keccak256("PROVIDER_ROLE"), "PROVIDER_ROLE");
        assertEq(reputation.REFERRER_ROLE(), keccak256("REFERRER_ROLE"), "REFERRER_ROLE");
    }

    function test_RevertWhen_AdminZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        new ReputationRegistry(address(0));
    }
}
