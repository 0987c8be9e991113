// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "forge-std/Vm.sol";

import {Base} from "../Base.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {IMissionEscrowState} from "contracts/interfaces/IMissionEscrowState.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Helpers that check where a dispute's tokens went.
abstract contract PayoutBase is Base {
    struct Balances {
        uint256 poster;
        uint256 performer;
        uint256 protocol; // the protocol fees accrued in the escrow (issue 40: not pushed)
        uint256 labs; // the labs fees accrued in the escrow
        uint256 treasuries; // what the two treasuries hold (nothing reaches them before withdrawFees)
        uint256 resolver;
        uint256 appealsResolver;
        uint256 escrow;
        uint256 pool;
    }

    function balances() internal view returns (Balances memory b) {
        b.poster = usdc.balanceOf(users.poster);
        b.performer = usdc.balanceOf(users.performer);
        (b.protocol, b.labs) = escrow.accruedFees();
        b.treasuries = usdc.balanceOf(users.protocolTreasury) + usdc.balanceOf(users.labsTreasury);
        b.resolver = usdc.balanceOf(users.resolver);
        b.appealsResolver = usdc.balanceOf(users.appealsResolver);
        b.escrow = usdc.balanceOf(address(escrow));
        b.pool = escrow.resolverPool();
    }

    /// @dev Puts `amount` into the resolver pool by approving a mission of 200 × `amount` (the pool's
    /// 0.5 %) between two outsiders, so the parties' balances are untouched.
    function seedPool(uint256 amount) internal {
        if (amount == 0) return;
        address poster = makeAddr("SeedPoster");
        address performer = makeAddr("SeedPerformer");
        fund(poster);
        uint256 before = escrow.resolverPool();
        vm.prank(poster);
        uint256 id = escrow.createMission(poster, amount * 200, block.timestamp + DURATION, 0, DETAILS_HASH);
        vm.prank(performer);
        escrow.acceptMission(id, performer, DETAILS_HASH);
        vm.prank(performer);
        escrow.submitProof(id, PROOF_HASH);
        vm.prank(poster);
        escrow.approveMission(id);
        assertEq(escrow.resolverPool() - before, amount, "pool seeded");
    }

    /// @dev The Payout of the DisputeFinalized event among the recorded logs. Also checks the pool's
    /// ResolverPaid event: emitted after DisputeFinalized exactly when the resolver was paid, with the
    /// payout's amount and resolver and the pool left.
    function finalizedPayout() internal returns (Disputes.Payout memory p, bool found) {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        uint256 paidEvents;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics[0] == IDisputeCourt.DisputeFinalized.selector) {
                (,,, p,) = abi.decode(logs[i].data, (Disputes.Outcome, uint8, Missions.State, Disputes.Payout, bool));
                found = true;
            } else if (logs[i].topics[0] == IMissionEscrowState.ResolverPaid.selector) {
                assertTrue(found, "ResolverPaid after DisputeFinalized");
                ++paidEvents;
                (uint256 amount, uint256 poolAfter) = abi.decode(logs[i].data, (uint256, uint256));
                assertEq(address(uint160(uint256(logs[i].topics[2]))), p.resolver, "ResolverPaid resolver");
                assertEq(amount, p.resolverAmount, "ResolverPaid amount");
                assertEq(poolAfter, escrow.resolverPool(), "ResolverPaid poolAfter");
            }
        }
        assertEq(paidEvents, p.resolverAmount == 0 ? 0 : 1, "ResolverPaid exactly when paid");
    }

    /// @dev Checks the payout sums to `held` (with the pool's share), each party's balance moved by its
    /// share, the resolver was paid from the pool (at most the decision fee, never more than it held).
    function assertPayout(Balances memory before, Disputes.Payout memory p, uint256 held) internal view {
        Balances memory a = balances();
        assertEq(
            p.posterAmount + p.performerAmount + p.protocolAmount + p.guildAmount + p.labsAmount + p.poolAmount,
            held,
            "payout sums to reward + DDR + LPP"
        );
        uint256 available = before.pool + p.poolAmount;
        assertEq(
            p.resolverAmount,
            p.resolver == address(0) ? 0 : (available < 5e6 ? available : 5e6),
            "resolver: min(fee, pool incl. this share)"
        );
        assertEq(a.pool, before.pool + p.poolAmount - p.resolverAmount, "pool in and out");
        assertEq(a.poster - before.poster, p.posterAmount, "poster paid");
        assertEq(a.performer - before.performer, p.performerAmount, "performer paid");
        assertEq(a.protocol - before.protocol, p.protocolAmount, "protocol accrued");
        assertEq(a.labs - before.labs, p.labsAmount, "labs accrued");
        assertEq(a.treasuries, before.treasuries, "treasuries paid only by withdrawFees");
        assertEq(a.resolver - before.resolver, p.resolverAmount, "resolver paid");
        assertEq(a.appealsResolver, before.appealsResolver, "appeals resolver is not paid by the escrow");
        assertEq(
            before.escrow - a.escrow,
            held - p.guildAmount - p.poolAmount - p.protocolAmount - p.labsAmount + p.resolverAmount,
            "escrow released all but the accruals (guild, pool, protocol, labs), and paid the resolver from the pool"
        );
    }

    function expectPayout(
        Disputes.Payout memory p,
        uint256 poster,
        uint256 performer,
        uint256 protocol,
        uint256 labs,
        uint256 pool,
        uint256 resolverAmount
    ) internal pure {
        assertEq(p.posterAmount, poster, "posterAmount");
        assertEq(p.performerAmount, performer, "performerAmount");
        assertEq(p.protocolAmount, protocol, "protocolAmount");
        assertEq(p.labsAmount, labs, "labsAmount");
        assertEq(p.poolAmount, pool, "poolAmount");
        assertEq(p.resolverAmount, resolverAmount, "resolverAmount");
    }
}
