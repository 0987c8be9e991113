// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PayoutBase} from "./PayoutBase.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice finalizeDispute after the appeal window and after the dispute timeout, with the payout table.
contract FinalizeDispute_Test is PayoutBase {
    uint256 internal constant DDR = 5e6;

    function finalizeAfterAppealWindow(uint256 disputeId) internal returns (Disputes.Payout memory p) {
        vm.warp(disputeOf(disputeId).deadline);
        Balances memory before = balances();
        vm.recordLogs();
        vm.prank(users.eve);
        escrow.finalizeDispute(disputeId);
        bool found;
        (p, found) = finalizedPayout();
        assertTrue(found, "DisputeFinalized emitted");
        assertPayout(before, p, REWARD + DDR);
    }

    function test_RevertWhen_DisputeNotFound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DisputeNotFound.selector, 1));
        escrow.finalizeDispute(1);
    }

    function test_RevertGiven_ResolvedAndAppealWindowOpen() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline - 1);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_DeadlineNotReached.selector, disputeId, deadline)
        );
        escrow.finalizeDispute(disputeId);
    }

    function test_RevertGiven_PendingBeforeTimeout() external {
        uint256 disputeId = createDispute();
        uint256 timeoutAt = disputeOf(disputeId).timeoutAt;
        vm.warp(timeoutAt - 1);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_DeadlineNotReached.selector, disputeId, timeoutAt)
        );
        escrow.finalizeDispute(disputeId);
    }

    function test_RevertGiven_Finalized() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        finalizeAfterAppealWindow(disputeId);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Finalized
            )
        );
        escrow.finalizeDispute(disputeId);
    }

    function test_GivenPosterWins_PosterInitiated() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // Resolver 2%, poster the net 98 plus its DDR back.
        expectPayout(p, 98e6 + DDR, 0, 0, 0, 2e6);
        assertEq(p.resolver, users.resolver, "resolver");
        assertEq(missionOf(1).state, Missions.State.Cancelled, "mission Cancelled");
        assertEq(disputeOf(disputeId).state, Disputes.State.Finalized, "dispute Finalized");
    }

    function test_GivenPerformerWins_PosterInitiated_PosterForfeitsDDR() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PerformerWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // Net 98: protocol 2.45, labs 0.98, performer 94.57 plus the poster's DDR.
        expectPayout(p, 0, 94.57e6 + DDR, 2.45e6, 0.98e6, 2e6);
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
    }

    function test_GivenPosterWins_PerformerInitiated_PerformerForfeitsDDR() external {
        uint256 disputeId = createDispute(REWARD, 0, users.performer);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.PosterWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, 98e6 + DDR, 0, 0, 0, 2e6);
    }

    function test_GivenSplit_DDRRefunded() external {
        uint256 disputeId = createResolved(Disputes.Outcome.Split, 30);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // Performer part 29.4: protocol 0.735, labs 0.294, performer 28.371; poster 68.6 plus its DDR.
        expectPayout(p, 68.6e6 + DDR, 28.371e6, 0.735e6, 0.294e6, 2e6);
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
    }

    function test_GivenCancelled_DDRRefunded() external {
        uint256 disputeId = createResolved(Disputes.Outcome.Cancelled, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, 98e6 + DDR, 0, 0, 0, 2e6);
        assertEq(missionOf(1).state, Missions.State.Cancelled, "mission Cancelled");
    }

    function test_GivenGuildMission_PerformerWins_GuildFeeAccrues() external {
        uint256 disputeId = createDispute(REWARD, guildId, users.performer);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.PerformerWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        assertEq(p.guildAmount, 4.9e6, "guild 5% of the net 98");
        assertEq(escrow.guildFees(guildId), 4.9e6, "guild fees accrued");
    }

    /*//////////////////////////////////////////////////////////////
                          DEFAULT (TIMEOUT)
    //////////////////////////////////////////////////////////////*/

    function test_GivenPendingPastTimeout_DefaultSplit() external {
        uint256 disputeId = createDispute();
        vm.warp(disputeOf(disputeId).timeoutAt);
        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, REWARD + DDR);
        // Split 50, no resolver fee: performer part 50 less 1.25 + 0.5 fees; DDR back to the poster.
        expectPayout(p, 50e6 + DDR, 48.25e6, 1.25e6, 0.5e6, 0);
        assertEq(p.resolver, address(0), "no resolver paid");
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.outcome, Disputes.Outcome.Split, "default outcome");
        assertEq(d.splitPercentage, 50, "default split");
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
    }

    function test_GivenInvestigatingAcrossTimeout_ResolverKeepsWindow() external {
        uint256 disputeId = createDispute();
        uint256 timeoutAt = disputeOf(disputeId).timeoutAt;
        vm.warp(timeoutAt - 1 hours);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(timeoutAt);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_DeadlineNotReached.selector, disputeId, deadline)
        );
        escrow.finalizeDispute(disputeId);
        vm.warp(deadline);
        vm.expectEmit(true, true, false, false, address(escrow));
        emit IDisputeCourt.DisputeFinalized(
            disputeId, 1, Disputes.Outcome.Split, 50, Missions.State.Completed, Disputes.Payout(0, 0, 0, 0, 0, 0, address(0)), true
        );
        escrow.finalizeDispute(disputeId);
    }

    function testFuzz_FinalizeResolved(uint256 reward, uint8 outcomeRaw, uint8 split, bool byPoster, bool inGuild)
        external
    {
        reward = bound(reward, 1, 1e18);
        Disputes.Outcome outcome = Disputes.Outcome(bound(outcomeRaw, 1, 4));
        split = outcome == Disputes.Outcome.Split ? uint8(bound(split, 1, 99)) : 0;
        address initiator = byPoster ? users.poster : users.performer;
        uint256 disputeId = createDispute(reward, inGuild ? guildId : 0, initiator);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, outcome, split);
        vm.warp(disputeOf(disputeId).deadline);

        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, reward + escrow.reserveFor(reward));
        assertEq(p.resolverAmount, reward * 200 / 10_000, "resolver 2%");
        if (outcome == Disputes.Outcome.PosterWins || outcome == Disputes.Outcome.Cancelled) {
            assertEq(p.protocolAmount + p.labsAmount + p.guildAmount, 0, "no fees on a refund to the poster");
            assertGe(p.posterAmount, reward - p.resolverAmount, "poster gets the net reward");
        }
    }

    function testFuzz_FinalizeDefault(uint256 reward, uint256 wait, bool byPoster) external {
        reward = bound(reward, 1, 1e18);
        wait = bound(wait, 30 days, 3650 days);
        uint256 disputeId = createDispute(reward, 0, byPoster ? users.poster : users.performer);
        vm.warp(block.timestamp + wait);
        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, reward + escrow.reserveFor(reward));
        assertEq(p.resolverAmount, 0, "no resolver fee by default");
        assertEq(p.posterAmount - (byPoster ? escrow.reserveFor(reward) : 0), reward - reward * 50 / 100, "poster half");
    }
}
