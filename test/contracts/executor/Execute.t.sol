// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

import {ExecutorBase} from "./ExecutorBase.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IRelayerExecutor} from "contracts/interfaces/IRelayerExecutor.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

contract Execute_Test is ExecutorBase {
    function test_Execute_CreatesForApprovingUser() external {
        uint256 before = usdc.balanceOf(users.poster);
        vm.expectEmit(address(executor));
        emit IRelayerExecutor.Forwarded(key0, address(escrow), IMissionEscrow.createMission.selector);
        uint256 missionId = relayCreate(REWARD);
        Missions.Mission memory m = escrow.getMission(missionId);
        assertEq(m.poster, users.poster, "poster is the user, not the executor");
        assertGt(before - usdc.balanceOf(users.poster), REWARD - 1, "reward pulled from the poster");
        assertEq(usdc.balanceOf(address(executor)), 0, "executor holds nothing");
    }

    function test_Execute_FullFlowPaysOnlyTheParties() external {
        uint256 missionId = relayCreate(REWARD);
        uint256 performerBefore = usdc.balanceOf(users.performer);
        vm.startPrank(key1);
        executor.execute(
            address(escrow),
            abi.encodeCall(IMissionEscrow.acceptMission, (missionId, users.performer, DETAILS_HASH))
        );
        executor.execute(address(escrow), abi.encodeCall(IMissionEscrow.submitProof, (missionId, PROOF_HASH)));
        executor.execute(address(escrow), abi.encodeCall(IMissionEscrow.approveMission, (missionId)));
        vm.stopPrank();
        assertEq(uint8(escrow.getMission(missionId).state), uint8(Missions.State.Completed), "completed");
        uint256 credited = escrow.credits(users.performer);
        if (credited > 0) {
            vm.prank(key0);
            executor.execute(address(escrow), abi.encodeCall(IMissionEscrow.withdraw, (users.performer)));
        }
        assertGt(usdc.balanceOf(users.performer), performerBefore, "the performer is paid");
        assertEq(usdc.balanceOf(address(executor)), 0, "executor holds nothing");
        assertEq(usdc.balanceOf(key0) + usdc.balanceOf(key1), 0, "keys get nothing");
    }

    function test_Execute_BubblesTheTargetsError() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_RewardTooSmall.selector, 0, 1));
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.poster, 0));
    }

    function test_RevertWhen_UserDidNotApprove() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.eve, address(executor)));
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.eve, REWARD));
    }

    function test_RevertWhen_CallerIsNotAKey(address caller) external {
        vm.assume(!executor.hasRole(executor.RELAYER_ROLE(), caller));
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, caller, executor.RELAYER_ROLE()
            )
        );
        vm.prank(caller);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_RevertWhen_SelectorNotAllowed(bytes4 selector) external {
        vm.assume(!executor.isAllowed(address(escrow), selector));
        vm.expectRevert(
            abi.encodeWithSelector(Errors.RelayerExecutor_CallNotAllowed.selector, address(escrow), selector)
        );
        vm.prank(key0);
        executor.execute(address(escrow), abi.encodePacked(selector, uint256(1)));
    }

    function test_RevertWhen_TargetNotAllowed() external {
        // The token is never a target: a key cannot move anyone's allowance.
        bytes memory data = abi.encodeCall(usdc.transferFrom, (users.poster, key0, 1));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector, address(usdc), usdc.transferFrom.selector
            )
        );
        vm.prank(key0);
        executor.execute(address(usdc), data);
    }

    function test_RevertWhen_AdminFunctionOfEscrow() external {
        bytes memory data = abi.encodeCall(IMissionEscrow.setTreasuries, (key0, key0));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector,
                address(escrow),
                IMissionEscrow.setTreasuries.selector
            )
        );
        vm.prank(key0);
        executor.execute(address(escrow), data);
    }

    function test_RevertWhen_DataShorterThanSelector() external {
        vm.expectRevert(
            abi.encodeWithSelector(Errors.RelayerExecutor_CallNotAllowed.selector, address(escrow), bytes4(0))
        );
        vm.prank(key0);
        executor.execute(address(escrow), hex"aabbcc");
    }

    function test_RevertWhen_ExecutorNamedAsParty() external {
        uint256 missionId = relayCreate(REWARD);
        bytes memory data =
            abi.encodeCall(IMissionEscrow.acceptMission, (missionId, address(executor), DETAILS_HASH));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_SelfAsParty.selector,
                address(escrow),
                IMissionEscrow.acceptMission.selector
            )
        );
        vm.prank(key0);
        executor.execute(address(escrow), data);
    }

    function test_RevertWhen_ExecutorNamedAsPoster() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_SelfAsParty.selector,
                address(escrow),
                IMissionEscrow.createMission.selector
            )
        );
        vm.prank(key0);
        executor.execute(address(escrow), createCall(address(executor), REWARD));
    }

    function test_RevertWhen_Paused() external {
        vm.prank(pauser);
        executor.pause();
        vm.expectRevert(Pausable.EnforcedPause.selector);
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_Execute_AfterUnpause() external {
        vm.prank(pauser);
        executor.pause();
        vm.prank(users.admin);
        executor.unpause();
        assertEq(relayCreate(REWARD), 1, "forwarding resumes");
    }

    function test_RevertWhen_PauserUnpauses() external {
        vm.prank(pauser);
        executor.pause();
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector,
                pauser,
                executor.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(pauser);
        executor.unpause();
    }

    function test_RevertWhen_KeyPauses() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, key0, executor.PAUSER_ROLE()
            )
        );
        vm.prank(key0);
        executor.pause();
    }

    function testFuzz_Execute_Reward(uint256 reward) external {
        reward = bound(reward, 1, MAX_REWARD);
        uint256 before = usdc.balanceOf(address(escrow));
        relayCreate(reward);
        assertGe(usdc.balanceOf(address(escrow)) - before, reward, "held by the escrow");
        assertEq(usdc.balanceOf(address(executor)), 0, "executor holds nothing");
    }
}
