// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ExecutorBase} from "./ExecutorBase.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IRelayerExecutor} from "contracts/interfaces/IRelayerExecutor.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

contract Batch_Test is ExecutorBase {
    function test_ExecuteBatch_InOrder() external {
        uint256 missionId = relayCreate(REWARD);
        IRelayerExecutor.Call[] memory calls = new IRelayerExecutor.Call[](2);
        calls[0] = IRelayerExecutor.Call(
            address(escrow),
            abi.encodeCall(IMissionEscrow.acceptMission, (missionId, users.performer, DETAILS_HASH))
        );
        calls[1] = IRelayerExecutor.Call(
            address(escrow), abi.encodeCall(IMissionEscrow.submitProof, (missionId, PROOF_HASH))
        );
        vm.prank(key0);
        bytes[] memory results = executor.executeBatch(calls);
        assertEq(results.length, 2, "two results");
        assertEq(uint8(escrow.getMission(missionId).state), uint8(Missions.State.Submitted), "submitted");
    }

    function test_ExecuteBatch_ReturnsEachResult() external {
        IRelayerExecutor.Call[] memory calls = new IRelayerExecutor.Call[](3);
        for (uint256 i; i < 3; ++i) {
            calls[i] = IRelayerExecutor.Call(address(escrow), createCall(users.poster, REWARD));
        }
        vm.prank(key1);
        bytes[] memory results = executor.executeBatch(calls);
        for (uint256 i; i < 3; ++i) {
            assertEq(abi.decode(results[i], (uint256)), i + 1, "mission id");
        }
    }

    function test_RevertWhen_OneCallNotAllowed_NothingHappens() external {
        IRelayerExecutor.Call[] memory calls = new IRelayerExecutor.Call[](2);
        calls[0] = IRelayerExecutor.Call(address(escrow), createCall(users.poster, REWARD));
        calls[1] =
            IRelayerExecutor.Call(address(usdc), abi.encodeCall(usdc.transferFrom, (users.poster, key0, 1)));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector, address(usdc), usdc.transferFrom.selector
            )
        );
        vm.prank(key0);
        executor.executeBatch(calls);
        assertEq(escrow.missionCount(), 0, "the first call rolled back");
    }

    function test_RevertWhen_BatchEmpty() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.RelayerExecutor_InvalidBatchSize.selector, 0, 32));
        vm.prank(key0);
        executor.executeBatch(new IRelayerExecutor.Call[](0));
    }

    function test_RevertWhen_BatchTooLarge() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.RelayerExecutor_InvalidBatchSize.selector, 33, 32));
        vm.prank(key0);
        executor.executeBatch(new IRelayerExecutor.Call[](33));
    }
}
