// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {PayoutBase} from "./PayoutBase.t.sol";
import {Vm} from "forge-std/Vm.sol";

import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {IMissionEscrowState} from "contracts/interfaces/IMissionEscrowState.sol";
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

    function test_GivenPosterWins_PosterInitiated_PosterBackToWhereItStarted() external {
        uint256 posterBefore = usdc.balanceOf(users.poster);
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // The whole reward and its DDR back; the empty pool pays the resolver nothing.
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 0);
        assertEq(p.resolver, users.resolver, "resolver who decided");
        assertEq(usdc.balanceOf(users.poster), posterBefore, "poster ends with exactly its balance before posting");
        assertEq(missionOf(1).state, Missions.State.Cancelled, "mission Cancelled");
        assertEq(disputeOf(disputeId).state, Disputes.State.Finalized, "dispute Finalized");
    }

    function test_GivenPosterWins_WithPool_ResolverPaidFromPool() external {
        seedPool(12e6);
        uint256 posterBefore = usdc.balanceOf(users.poster);
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 5e6);
        assertEq(usdc.balanceOf(users.poster), posterBefore, "poster whole: the resolver is paid by the pool");
        assertEq(escrow.resolverPool(), 7e6, "pool less one decision fee");
    }

    function test_GivenPartialPool_ResolverGetsWhatIsThere() external {
        seedPool(2e6);
        uint256 disputeId = createResolved(Disputes.Outcome.Cancelled, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 2e6);
        assertEq(escrow.resolverPool(), 0, "pool emptied");
    }

    function test_GivenEmptyPool_NoResolverPaidEvent() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.warp(disputeOf(disputeId).deadline);
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            assertTrue(logs[i].topics[0] != IMissionEscrowState.ResolverPaid.selector, "no ResolverPaid");
        }
    }

    function test_GivenPerformerWins_PosterInitiated_PosterForfeitsDDR() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PerformerWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // Settled as on approval: treasury 2, pool 0.5, labs 1, performer 96.5 plus the poster's DDR;
        // the resolver is paid the 0.5 this very settlement put into the empty pool.
        expectPayout(p, 0, 96.5e6 + DDR, 2e6, 1e6, 0.5e6, 0.5e6);
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
    }

    function test_GivenPosterWins_PerformerInitiated_PerformerForfeitsDDR() external {
        uint256 disputeId = createDispute(REWARD, 0, users.performer);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.PosterWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 0);
    }

    function test_GivenSplit_DDRRefunded() external {
        uint256 disputeId = createResolved(Disputes.Outcome.Split, 30);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        // Performer part 30: treasury 0.6, pool 0.15, labs 0.3, performer 28.95; poster 70 plus its DDR.
        expectPayout(p, 70e6 + DDR, 28.95e6, 0.6e6, 0.3e6, 0.15e6, 0.15e6);
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
    }

    function test_GivenCancelled_DDRRefunded() external {
        uint256 disputeId = createResolved(Disputes.Outcome.Cancelled, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        expectPayout(p, REWARD + DDR, 0, 0, 0, 0, 0);
        assertEq(missionOf(1).state, Missions.State.Cancelled, "mission Cancelled");
    }

    function test_GivenGuildMission_PerformerWins_GuildFeeAccrues() external {
        uint256 disputeId = createDispute(REWARD, guildId, users.performer);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, Disputes.Outcome.PerformerWins, 0);
        Disputes.Payout memory p = finalizeAfterAppealWindow(disputeId);
        assertEq(p.guildAmount, 5e6, "guild 5% of the whole reward");
        assertEq(escrow.guildFees(guildId), 5e6, "guild fees accrued");
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
        // Split 50, no resolver pay: performer part 50 less 1.25 + 0.5 fees; DDR back to the poster.
        expectPayout(p, 50e6 + DDR, 48.25e6, 1e6, 0.5e6, 0.25e6, 0);
        assertEq(p.resolver, address(0), "no resolver paid");
        assertEq(escrow.resolverPool(), 0.25e6, "the pool keeps its share");
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
            disputeId, 1, Disputes.Outcome.Split, 50, Missions.State.Completed, Disputes.Payout(0, 0, 0, 0, 0, 0, address(0), 0), true
        );
        escrow.finalizeDispute(disputeId);
    }

    function testFuzz_FinalizeResolved(uint256 reward, uint8 outcomeRaw, uint8 split, bool byPoster, bool inGuild)
        external
    {
        reward = bound(reward, 1, MAX_REWARD);
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
        assertEq(p.resolver, users.resolver, "the deciding resolver");
        checkOutcomeTable(p, reward, outcome, split, byPoster, inGuild);
    }

    /// @dev The outcome table: a refund is the whole reward; a performer part is settled as on approval.
    function checkOutcomeTable(
        Disputes.Payout memory p,
        uint256 reward,
        Disputes.Outcome outcome,
        uint8 split,
        bool byPoster,
        bool inGuild
    ) internal view {
        uint256 ddr = escrow.reserveFor(reward);
        if (outcome == Disputes.Outcome.PosterWins || outcome == Disputes.Outcome.Cancelled) {
            assertEq(p.protocolAmount + p.labsAmount + p.guildAmount + p.poolAmount, 0, "no fees on a refund");
            // The whole reward, the DDR (own or forfeited; back to the initiator on Cancelled).
            assertEq(p.posterAmount, reward + (byPoster || outcome == Disputes.Outcome.PosterWins ? ddr : 0), "poster");
        } else {
            uint256 part = outcome == Disputes.Outcome.Split ? reward * split / 100 : reward;
            Missions.Settlement memory s = escrow.previewSettlement(part, inGuild ? GUILD_FEE_BPS : 0);
            bool ddrToPerformer = outcome == Disputes.Outcome.PerformerWins || !byPoster;
            assertEq(p.performerAmount, s.performerAmount + (ddrToPerformer ? ddr : 0), "performer: settled as approval");
            assertEq(p.posterAmount, reward - part + (ddrToPerformer ? 0 : ddr), "poster: the rest");
            assertEq(p.protocolAmount, s.protocolAmount, "treasury");
            assertEq(p.poolAmount, s.resolverAmount, "pool");
        }
    }

    function testFuzz_FinalizeDefault(uint256 reward, uint256 wait, bool byPoster) external {
        reward = bound(reward, 1, MAX_REWARD);
        wait = bound(wait, 30 days, 3650 days);
        uint256 disputeId = createDispute(reward, 0, byPoster ? users.poster : users.performer);
        vm.warp(block.timestamp + wait);
        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, reward + escrow.reserveFor(reward));
        assertEq(p.resolverAmount, 0, "no resolver pay by default");
        assertEq(p.posterAmount - (byPoster ? escrow.reserveFor(reward) : 0), reward - reward * 50 / 100, "poster half");
    }
}
