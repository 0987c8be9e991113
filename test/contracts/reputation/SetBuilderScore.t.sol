// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {IReputationRegistry} from "../../../contracts/interfaces/IReputationRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {ReputationRegistryBase} from "./ReputationRegistry.t.sol";

contract SetBuilderScore_Test is ReputationRegistryBase {
    function testFuzz_SetBuilderScore(uint8 score) external {
        score = uint8(bound(score, 0, 100));
        vm.expectEmit(address(reputation));
        emit IReputationRegistry.BuilderScoreSet(builder, score, provider);
        vm.prank(provider);
        reputation.setBuilderScore(builder, score);
        (uint8 stored, bool isSet) = reputation.builderScoreOf(builder);
        assertEq(stored, score, "score");
        assertTrue(isSet, "isSet");
    }

    function test_BuilderScoreOf_Unset() external view {
        (uint8 score, bool isSet) = reputation.builderScoreOf(builder);
        assertEq(score, 0, "score");
        assertFalse(isSet, "not set");
    }

    function test_SetBuilderScore_Overwrites() external {
        vm.startPrank(provider);
        reputation.setBuilderScore(builder, 80);
        reputation.setBuilderScore(builder, 0);
        vm.stopPrank();
        (uint8 score, bool isSet) = reputation.builderScoreOf(builder);
        assertEq(score, 0, "latest score wins");
        assertTrue(isSet, "zero is a set score");
    }

    function test_RevertWhen_CallerNotProvider() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, relayer, reputation.PROVIDER_ROLE()
            )
        );
        vm.prank(relayer);
        reputation.setBuilderScore(builder, 50);
    }

    function testFuzz_RevertWhen_ScoreOutOfRange(uint8 score) external {
        score = uint8(bound(score, 101, type(uint8).max));
        vm.expectRevert(abi.encodeWithSelector(Errors.ReputationRegistry_ScoreOutOfRange.selector, score));
        vm.prank(provider);
        reputation.setBuilderScore(builder, score);
    }

    function test_RevertWhen_AccountZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        vm.prank(provider);
        reputation.setBuilderScore(address(0), 50);
    }
}
