// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Vm} from "forge-std/Vm.sol";

import {Base} from "../Base.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Helpers that check where a dispute's tokens went.
abstract contract PayoutBase is Base {
    struct Balances {
        uint256 poster;
        uint256 performer;
        uint256 protocol;
        uint256 labs;
        uint256 resolver;
        uint256 appealsResolver;
        uint256 escrow;
    }

    function balances() internal view returns (Balances memory b) {
        b.poster = usdc.balanceOf(users.poster);
        b.performer = usdc.balanceOf(users.performer);
        b.protocol = usdc.balanceOf(users.protocolTreasury);
        b.labs = usdc.balanceOf(users.labsTreasury);
        b.resolver = usdc.balanceOf(users.resolver);
        b.appealsResolver = usdc.balanceOf(users.appealsResolver);
        b.escrow = usdc.balanceOf(address(escrow));
    }

    /// @dev The Payout of the DisputeFinalized event among the recorded logs.
    function finalizedPayout() internal returns (Disputes.Payout memory p, bool found) {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics[0] == IDisputeCourt.DisputeFinalized.selector) {
                (,,, p,) = abi.decode(logs[i].data, (Disputes.Outcome, uint8, Missions.State, Disputes.Payout, bool));
                return (p, true);
            }
        }
    }

    /// @dev Checks the payout sums to `held` and each party's balance moved by its share.
    function assertPayout(Balances memory before, Disputes.Payout memory p, uint256 held) internal view {
        Balances memory a = balances();
        assertEq(
            p.posterAmount + p.performerAmount + p.protocolAmount + p.guildAmount + p.labsAmount + p.resolverAmount,
            held,
            "payout sums to reward + DDR + LPP"
        );
        assertEq(a.poster - before.poster, p.posterAmount, "poster paid");
        assertEq(a.performer - before.performer, p.performerAmount, "performer paid");
        assertEq(a.protocol - before.protocol, p.protocolAmount, "protocol paid");
        assertEq(a.labs - before.labs, p.labsAmount, "labs paid");
        assertEq(a.resolver - before.resolver, p.resolverAmount, "resolver paid");
        assertEq(a.appealsResolver, before.appealsResolver, "appeals resolver is not paid by the escrow");
        assertEq(before.escrow - a.escrow, held - p.guildAmount, "escrow released all but guild fees");
    }

    function expectPayout(
        Disputes.Payout memory p,
        uint256 poster,
        uint256 performer,
        uint256 protocol,
        uint256 labs,
        uint256 resolverAmount
    ) internal pure {
        assertEq(p.posterAmount, poster, "posterAmount");
        assertEq(p.performerAmount, performer, "performerAmount");
        assertEq(p.protocolAmount, protocol, "protocolAmount");
        assertEq(p.labsAmount, labs, "labsAmount");
        assertEq(p.resolverAmount, resolverAmount, "resolverAmount");
    }
}
