// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {ExecutorBase} from "./ExecutorBase.t.sol";
import {RelayerExecutor} from "contracts/RelayerExecutor.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IRelayerExecutor} from "contracts/interfaces/IRelayerExecutor.sol";
import {Errors} from "contracts/libraries/Errors.sol";

contract Allowlist_Test is ExecutorBase {
    function test_Constructor() external {
        assertTrue(executor.hasRole(executor.DEFAULT_ADMIN_ROLE(), users.admin), "admin");
        assertEq(executor.MAX_BATCH(), 32, "max batch");
        vm.expectRevert(Errors.ZeroAddress.selector);
        new RelayerExecutor(address(0));
    }

    function test_SetAllowed() external {
        bytes4 sel = IMissionEscrow.updateDetails.selector;
        assertFalse(executor.isAllowed(address(escrow), sel), "not yet");
        vm.expectEmit(address(executor));
        emit IRelayerExecutor.CallAllowed(address(escrow), sel, true);
        vm.prank(users.admin);
        executor.setAllowed(address(escrow), sel, true);
        assertTrue(executor.isAllowed(address(escrow), sel), "allowed");
        assertFalse(executor.isAllowed(address(guildRegistry), sel), "per target");
    }

    function test_SetAllowed_Disallow() external {
        bytes4 sel = IMissionEscrow.createMission.selector;
        vm.prank(users.admin);
        executor.setAllowed(address(escrow), sel, false);
        assertFalse(executor.isAllowed(address(escrow), sel), "disallowed");
        vm.expectRevert(
            abi.encodeWithSelector(Errors.RelayerExecutor_CallNotAllowed.selector, address(escrow), sel)
        );
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_RevertWhen_SetAllowedByNonAdmin(address caller) external {
        vm.assume(caller != users.admin);
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector,
                caller,
                executor.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(caller);
        executor.setAllowed(address(usdc), usdc.transfer.selector, true);
    }

    function test_RevertWhen_SetAllowedSelf() external {
        vm.expectRevert(Errors.RelayerExecutor_SelfTarget.selector);
        vm.prank(users.admin);
        executor.setAllowed(address(executor), IAccessControl.grantRole.selector, true);
    }

    function test_RevertWhen_SetAllowedNoCode() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.RelayerExecutor_NotAContract.selector, users.eve));
        vm.prank(users.admin);
        executor.setAllowed(users.eve, bytes4(0x12345678), true);
    }

    function test_RevertWhen_KeyForwardsToExecutorItself() external {
        // Even a forged allowlist entry cannot exist for the executor, so a key never reaches grantRole.
        bytes memory data = abi.encodeCall(IAccessControl.grantRole, (executor.RELAYER_ROLE(), users.eve));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector,
                address(executor),
                IAccessControl.grantRole.selector
            )
        );
        vm.prank(key0);
        executor.execute(address(executor), data);
    }
}
