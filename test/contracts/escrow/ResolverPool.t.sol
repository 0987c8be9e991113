// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {console2} from "forge-std/console2.sol";

import {PayoutBase} from "./PayoutBase.t.sol";
import {Disputes} from "contracts/types/DataTypes.sol";

/// @notice How fast the resolver pool fills (docs/decisions.md, "Money in trouble (contracts)").
contract ResolverPool_Test is PayoutBase {
    /// @dev The bench dataset's rewards are log-normal around a 20 USDC median (σ 0.9): mean ≈ 30 USDC.
    /// Each approval puts 0.5 % of the reward into the pool: 0.15 USDC per average mission, so one 5 USDC
    /// decision is funded by every 33⅓ average missions.
    function test_PoolAfterHundredAverageMissions() external {
        for (uint256 i; i < 100; ++i) {
            uint256 id = createSubmitted(30e6, i % 2 == 0 ? guildId : 0);
            vm.prank(users.poster);
            escrow.approveMission(id);
        }
        console2.log("pool after 100 missions of 30 USDC (base units):", escrow.resolverPool());
        assertEq(escrow.resolverPool(), 15e6, "0.15 USDC per mission");
    }

    /// @dev Small missions round the pool's share down: below 200 base units nothing goes in; a 1 USDC
    /// mission adds 0.005 USDC.
    function test_PoolRoundsDown() external {
        uint256 id = createSubmitted(199, 0);
        vm.prank(users.poster);
        escrow.approveMission(id);
        assertEq(escrow.resolverPool(), 0, "199 base units: protocol 4, pool 0");
        id = createSubmitted(1e6, 0);
        vm.prank(users.poster);
        escrow.approveMission(id);
        assertEq(escrow.resolverPool(), 5_000, "1 USDC: pool 5,000 base units");
    }

    /// @dev Decisions drain the pool 5 USDC at a time; the one that finds it short gets what is left.
    function test_DecisionsDrainThePool() external {
        seedPool(7e6);
        uint256 first = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.warp(disputeOf(first).deadline);
        escrow.finalizeDispute(first);
        assertEq(usdc.balanceOf(users.resolver), 5e6, "first decision: the whole fee");
        uint256 second = createResolved(Disputes.Outcome.Cancelled, 0);
        vm.warp(disputeOf(second).deadline);
        escrow.finalizeDispute(second);
        assertEq(usdc.balanceOf(users.resolver), 7e6, "second: the 2 USDC left");
        assertEq(escrow.resolverPool(), 0, "empty");
        uint256 third = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.warp(disputeOf(third).deadline);
        escrow.finalizeDispute(third);
        assertEq(usdc.balanceOf(users.resolver), 7e6, "third: nothing");
    }
}
