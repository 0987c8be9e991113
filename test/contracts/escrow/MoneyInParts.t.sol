// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PayoutBase} from "./PayoutBase.t.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Fuzz: rewards from 1 base unit to 10^12 USDC, partial releases and refunds in any order, then
/// any ending (approval, claim, expiry, a settlement with or without a dispute, a decided dispute). Every
/// party's balance moves by exactly what the rules give, computed here from previewSettlement.
contract MoneyInParts_Test is PayoutBase {
    /// @dev What each party should have received (or, for the poster, paid) so far.
    struct Model {
        uint256 reward;
        uint16 fee;
        uint256 remainder;
        uint256 performer;
        uint256 poster; // received back
        uint256 protocol;
        uint256 labs;
        uint256 guild;
        uint256 pool; // added to the pool
        uint256 resolver;
        uint256 posterDdrLost; // the poster's DDR that went to the performer
        uint256 performerDdrLost; // the performer's DDR that went to the poster
    }

    function settleInto(Model memory md, uint256 amount) internal view {
        Missions.Settlement memory s = escrow.previewSettlement(amount, md.fee);
        md.performer += s.performerAmount;
        md.protocol += s.protocolAmount;
        md.labs += s.labsAmount;
        md.guild += s.guildAmount;
        md.pool += s.resolverAmount;
    }

    /// @dev Up to 6 parts, each a release (bit set) or a refund, of a fuzzed share of the remainder.
    function moveParts(uint256 id, Model memory md, uint256[6] memory amounts, uint8 kinds, bool accepted)
        internal
    {
        for (uint256 i; i < 6 && md.remainder > 1; ++i) {
            // Keep at least 1 unit so that the ending has something to act on (a whole release is tested below).
            uint256 amount = bound(amounts[i], 1, md.remainder - 1);
            if ((kinds >> i) & 1 == 1) {
                vm.prank(users.poster);
                escrow.releasePartial(id, amount);
                settleInto(md, amount);
            } else {
                vm.prank(users.performer);
                escrow.refundPartial(id, amount);
                md.poster += amount;
            }
            md.remainder -= amount;
            assertEq(escrow.remainingOf(id), md.remainder, "remainder");
        }
        assertEq(missionOf(id).state, accepted ? Missions.State.Accepted : Missions.State.Submitted, "still live");
    }

    function testFuzz_PartsThenAnyEnding(
        uint256 reward,
        bool inGuild,
        uint256[6] memory amounts,
        uint8 kinds,
        uint8 ending,
        uint256 x,
        bool byPoster
    ) external {
        reward = bound(reward, 1, MAX_REWARD);
        seedPool(bound(x, 0, 8e6)); // empty, partial or full pool
        Balances memory before = balances();
        uint256 guildBefore = escrow.guildFees(guildId);
        ending = uint8(bound(ending, 0, 6));
        bool accepted = ending == 2;
        uint256 id = accepted ? createAccepted(reward, inGuild ? guildId : 0) : createSubmitted(reward, inGuild ? guildId : 0);
        Model memory md = Model(reward, inGuild ? GUILD_FEE_BPS : 0, reward, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        moveParts(id, md, amounts, kinds, accepted);
        Missions.State finalState = end(id, md, ending, x, byPoster);

        Balances memory a = balances();
        assertEq(
            a.performer + md.performerDdrLost, before.performer + md.performer + md.posterDdrLost, "performer exact"
        );
        assertEq(a.poster + reward + md.posterDdrLost, before.poster + md.poster + md.performerDdrLost, "poster exact");
        assertEq(a.protocol - before.protocol, md.protocol, "treasury exact (accrued)");
        assertEq(a.labs - before.labs, md.labs, "labs exact (accrued)");
        assertEq(a.treasuries, before.treasuries, "treasuries paid only by withdrawFees");
        assertEq(a.resolver - before.resolver, md.resolver, "resolver exact");
        assertEq(escrow.guildFees(guildId) - guildBefore, md.guild, "guild exact");
        assertEq(a.pool, before.pool + md.pool - md.resolver, "pool exact");
        assertEq(
            a.escrow, escrow.guildFees(guildId) + a.pool + a.protocol + a.labs, "escrow holds only the accruals"
        );
        assertEq(
            md.performer + md.poster + md.protocol + md.labs + md.guild + md.pool, reward, "every unit of the reward once"
        );
        assertEq(missionOf(id).state, finalState, "final state");
        assertEq(escrow.remainingOf(id), 0, "nothing left");
    }

    /// @dev Ends the mission one of seven ways; fills the model with the ending's payments (a DDR is netted
    /// out: the poster's and performer's deltas count only the reward).
    function end(uint256 id, Model memory md, uint8 ending, uint256 x, bool byPoster)
        internal
        returns (Missions.State)
    {
        uint256 r = md.remainder;
        if (ending == 0) {
            vm.prank(users.poster);
            escrow.approveMission(id);
            settleInto(md, r);
            return Missions.State.Completed;
        }
        if (ending == 1) {
            // The whole remainder released: the mission completes.
            vm.prank(users.poster);
            escrow.releasePartial(id, r);
            settleInto(md, r);
            return Missions.State.Completed;
        }
        if (ending == 2) {
            vm.warp(missionOf(id).expiresAt);
            escrow.expireMission(id);
            md.poster += r;
            return Missions.State.Expired;
        }
        if (ending == 3) {
            vm.prank(users.performer);
            escrow.refundPartial(id, r);
            md.poster += r;
            return Missions.State.Cancelled;
        }
        uint256 part = bound(x, 0, r);
        if (ending == 4) {
            // A settlement without a dispute.
            vm.prank(users.performer);
            escrow.offerSettlement(id, users.performer, part);
            vm.prank(users.poster);
            escrow.acceptSettlement(id, users.poster, part);
            settleInto(md, part);
            md.poster += r - part;
            return part == 0 ? Missions.State.Cancelled : Missions.State.Completed;
        }
        return disputeEnding(id, md, ending == 5, part, x, byPoster);
    }

    /// @dev A dispute, then either a settlement with the resolver assigned or a decision of any outcome.
    function disputeEnding(uint256 id, Model memory md, bool settle, uint256 part, uint256 x, bool byPoster)
        internal
        returns (Missions.State state)
    {
        uint256 r = md.remainder;
        address initiator = byPoster ? users.poster : users.performer;
        vm.prank(initiator);
        uint256 disputeId = escrow.raiseDispute(id, initiator, REASON_HASH);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        uint256 poolBefore = escrow.resolverPool();
        uint256 poolInBefore = md.pool;
        if (settle) {
            // Settled inside the dispute, with the resolver assigned: Split, DDR back to the initiator.
            vm.prank(users.poster);
            escrow.offerSettlement(id, users.poster, part);
            vm.prank(users.performer);
            escrow.acceptSettlement(id, users.performer, part);
            settleInto(md, part);
            md.poster += r - part;
            state = part == 0 ? Missions.State.Cancelled : Missions.State.Completed;
        } else {
            state = decided(md, disputeId, x, byPoster);
        }
        // The deciding (or assigned) resolver: min(5 USDC, the pool including this dispute's share).
        uint256 available = poolBefore + (md.pool - poolInBefore);
        md.resolver = available - escrow.resolverPool();
        assertEq(md.resolver, available < 5e6 ? available : 5e6, "resolver: min(fee, pool incl. this share)");
    }

    /// @dev A decision of any outcome of the table, finalized after the appeal window.
    function decided(Model memory md, uint256 disputeId, uint256 x, bool byPoster) internal returns (Missions.State) {
        uint256 r = md.remainder;
        Disputes.Outcome outcome = Disputes.Outcome(bound(x, 1, 4));
        uint8 split = outcome == Disputes.Outcome.Split ? uint8(bound(x >> 8, 1, 99)) : 0;
        resolve(disputeId, outcome, split);
        vm.warp(disputeOf(disputeId).deadline);
        escrow.finalizeDispute(disputeId);
        uint256 performerPart =
            outcome == Disputes.Outcome.PerformerWins ? r : outcome == Disputes.Outcome.Split ? r * split / 100 : 0;
        settleInto(md, performerPart);
        md.poster += r - performerPart;
        // The DDR changes hands when the initiator lost: the loser paid it, the winner gets it.
        uint256 ddr = escrow.reserveFor(r);
        if (byPoster && outcome == Disputes.Outcome.PerformerWins) md.posterDdrLost = ddr;
        if (!byPoster && outcome == Disputes.Outcome.PosterWins) md.performerDdrLost = ddr;
        return outcome == Disputes.Outcome.PosterWins || outcome == Disputes.Outcome.Cancelled
            ? Missions.State.Cancelled
            : Missions.State.Completed;
    }
}
