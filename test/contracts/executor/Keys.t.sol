// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {ExecutorBase} from "./ExecutorBase.t.sol";

/// @notice Rotation: keys come and go; the users' single approval of the executor stays valid.
contract Keys_Test is ExecutorBase {
    function test_Rotation_NewKeyActsWithoutReapproval() external {
        address fresh = makeAddr("FreshKey");
        vm.startPrank(users.admin);
        executor.grantRole(executor.RELAYER_ROLE(), fresh);
        executor.revokeRole(executor.RELAYER_ROLE(), key0);
        vm.stopPrank();

        vm.prank(fresh);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
        assertEq(escrow.missionCount(), 1, "the new key created for the poster");
        assertTrue(operators.isOperator(users.poster, address(executor)), "approval untouched");

        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, key0, executor.RELAYER_ROLE()
            )
        );
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_Rotation_KeyRenouncesItself() external {
        bytes32 relayer = executor.RELAYER_ROLE();
        vm.prank(key1);
        executor.renounceRole(relayer, key1);
        assertFalse(executor.hasRole(executor.RELAYER_ROLE(), key1), "renounced");
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, key1, executor.RELAYER_ROLE()
            )
        );
        vm.prank(key1);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_RevertWhen_KeyGrantsAKey() external {
        bytes32 relayer = executor.RELAYER_ROLE();
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, key0, executor.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(key0);
        executor.grantRole(relayer, users.eve);
    }

    function test_RevertWhen_KeyRevokesAnotherKey() external {
        bytes32 relayer = executor.RELAYER_ROLE();
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, key0, executor.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(key0);
        executor.revokeRole(relayer, key1);
    }

    function testFuzz_Rotation_ManyKeys(uint8 count) external {
        count = uint8(bound(count, 1, 20));
        bytes32 relayer = executor.RELAYER_ROLE();
        for (uint256 i; i < count; ++i) {
            address k = makeAddr(string.concat("Pool", vm.toString(i)));
            vm.prank(users.admin);
            executor.grantRole(relayer, k);
            vm.prank(k);
            executor.execute(address(escrow), createCall(users.poster, REWARD));
            vm.prank(users.admin);
            executor.revokeRole(relayer, k);
        }
        assertEq(escrow.missionCount(), count, "each key acted once for the same approval");
    }
}
