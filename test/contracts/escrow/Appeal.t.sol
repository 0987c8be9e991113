// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {PayoutBase} from "./PayoutBase.t.sol";
import {IDisputeCourt} from "contracts/interfaces/IDisputeCourt.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice appealDispute, decideAppeal and the finalization of an undecided appeal.
contract Appeal_Test is PayoutBase {
    uint256 internal constant RESERVE = 5e6;

    function decide(uint256 disputeId, Disputes.Outcome outcome, uint8 split) internal returns (Disputes.Payout memory p) {
        Balances memory before = balances();
        vm.recordLogs();
        vm.prank(users.appealsResolver);
        escrow.decideAppeal(disputeId, outcome, split, RESOLUTION_HASH);
        bool found;
        (p, found) = finalizedPayout();
        assertTrue(found, "finalized in the same call");
        assertPayout(before, p, REWARD + 2 * RESERVE);
    }

    /*//////////////////////////////////////////////////////////////
                                APPEAL
    //////////////////////////////////////////////////////////////*/

    function test_Appeal_RevertWhen_CallerNotAppellant() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.performer, users.eve));
        escrow.appealDispute(disputeId, users.performer);
    }

    function test_Appeal_RevertWhen_AppellantNotParty() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, 1, users.eve));
        escrow.appealDispute(disputeId, users.eve);
    }

    function test_Appeal_RevertGiven_Investigating() external {
        uint256 disputeId = createInvestigating();
        vm.prank(users.performer);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Investigating
            )
        );
        escrow.appealDispute(disputeId, users.performer);
    }

    function test_Appeal_RevertWhen_AppealWindowClosed() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline);
        vm.prank(users.performer);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DeadlinePassed.selector, disputeId, deadline));
        escrow.appealDispute(disputeId, users.performer);
    }

    function test_Appeal_RevertGiven_Appealed() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        vm.prank(users.poster);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Appealed)
        );
        escrow.appealDispute(disputeId, users.poster);
    }

    function test_GivenResolved_WhenAppealed() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        uint256 before = usdc.balanceOf(users.performer);
        uint256 decisionDeadline = block.timestamp + 7 days;
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.DisputeAppealed(disputeId, users.performer, RESERVE, decisionDeadline);
        vm.prank(users.performer);
        escrow.appealDispute(disputeId, users.performer);
        Disputes.Dispute memory d = disputeOf(disputeId);
        assertEq(d.state, Disputes.State.Appealed, "state");
        assertEq(d.appellant, users.performer, "appellant");
        assertEq(d.lppAmount, RESERVE, "lpp");
        assertEq(d.appealedOutcome, Disputes.Outcome.PosterWins, "appealed outcome");
        assertEq(d.deadline, decisionDeadline, "decision deadline");
        assertEq(before - usdc.balanceOf(users.performer), RESERVE, "LPP pulled");
    }

    /*//////////////////////////////////////////////////////////////
                             DECIDE APPEAL
    //////////////////////////////////////////////////////////////*/

    function test_Decide_RevertWhen_CallerLacksRole() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        bytes32 role = escrow.APPEALS_ROLE();
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, users.eve, role)
        );
        escrow.decideAppeal(disputeId, Disputes.Outcome.PerformerWins, 0, RESOLUTION_HASH);
    }

    function test_Decide_RevertWhen_CallerIsParty() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        bytes32 role = escrow.APPEALS_ROLE();
        vm.prank(users.admin);
        escrow.grantRole(role, users.poster);
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_ResolverIsParty.selector, disputeId, users.poster));
        escrow.decideAppeal(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_Decide_RevertWhen_CallerIsFirstResolver() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        bytes32 role = escrow.APPEALS_ROLE();
        vm.prank(users.admin);
        escrow.grantRole(role, users.resolver);
        vm.prank(users.resolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_SameResolver.selector, disputeId, users.resolver));
        escrow.decideAppeal(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_Decide_RevertGiven_Resolved() external {
        uint256 disputeId = createResolved(Disputes.Outcome.PosterWins, 0);
        vm.prank(users.appealsResolver);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.MissionEscrow_InvalidDisputeState.selector, disputeId, Disputes.State.Resolved)
        );
        escrow.decideAppeal(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_Decide_RevertWhen_DeadlinePassed() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline);
        vm.prank(users.appealsResolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DeadlinePassed.selector, disputeId, deadline));
        escrow.decideAppeal(disputeId, Disputes.Outcome.PosterWins, 0, RESOLUTION_HASH);
    }

    function test_Decide_RevertWhen_InvalidOutcome() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        vm.prank(users.appealsResolver);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidOutcome.selector, Disputes.Outcome.Split, 0));
        escrow.decideAppeal(disputeId, Disputes.Outcome.Split, 0, RESOLUTION_HASH);
    }

    function test_GivenAppealed_WhenOverturned_LPPRefunded() external {
        // Poster initiated and won; the performer appeals and wins: the poster's DDR goes to the performer.
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.AppealDecided(
            disputeId, users.appealsResolver, Disputes.Outcome.PerformerWins, 0, RESOLUTION_HASH, true
        );
        Disputes.Payout memory p = decide(disputeId, Disputes.Outcome.PerformerWins, 0);
        expectPayout(p, 0, 96.5e6 + RESERVE + RESERVE, 2e6, 1e6, 0.5e6, 0.5e6);
        assertEq(p.resolver, users.resolver, "the first resolver is paid from the pool");
        assertEq(missionOf(1).state, Missions.State.Completed, "mission Completed");
        assertEq(disputeOf(disputeId).state, Disputes.State.Finalized, "Finalized");
    }

    function test_GivenAppealed_WhenUpheld_LPPToOtherParty() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PosterWins, 0, users.performer);
        Disputes.Payout memory p = decide(disputeId, Disputes.Outcome.PosterWins, 0);
        // Poster: the whole reward + its DDR + the performer's LPP.
        expectPayout(p, REWARD + 2 * RESERVE, 0, 0, 0, 0, 0);
        assertEq(missionOf(1).state, Missions.State.Cancelled, "mission Cancelled");
    }

    function test_GivenAppealedSplit_WhenPercentageChanged_Overturned() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.Split, 30, users.poster);
        vm.expectEmit(address(escrow));
        emit IDisputeCourt.AppealDecided(disputeId, users.appealsResolver, Disputes.Outcome.Split, 20, RESOLUTION_HASH, true);
        Disputes.Payout memory p = decide(disputeId, Disputes.Outcome.Split, 20);
        // Performer part 20: treasury 0.4, pool 0.1, labs 0.2, performer 19.3; poster 80 + DDR + LPP back.
        expectPayout(p, 80e6 + 2 * RESERVE, 19.3e6, 0.4e6, 0.2e6, 0.1e6, 0.1e6);
    }

    function test_GivenAppealUndecided_WhenFinalized_FirstOutcomeAndLPPRefunded() external {
        uint256 disputeId = createAppealed(Disputes.Outcome.PerformerWins, 0, users.poster);
        uint256 deadline = disputeOf(disputeId).deadline;
        vm.warp(deadline - 1);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_DeadlineNotReached.selector, disputeId, deadline));
        escrow.finalizeDispute(disputeId);

        vm.warp(deadline);
        Balances memory before = balances();
        vm.recordLogs();
        escrow.finalizeDispute(disputeId);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, REWARD + 2 * RESERVE);
        // PerformerWins stands; the poster initiated and lost its DDR; its LPP comes back.
        expectPayout(p, RESERVE, 96.5e6 + RESERVE, 2e6, 1e6, 0.5e6, 0.5e6);
    }

    function appealedGuildDispute(uint256 reward, Disputes.Outcome outcome, uint8 split, bool posterAppeals)
        internal
        returns (uint256 disputeId)
    {
        disputeId = createDispute(reward, guildId, users.poster);
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
        resolve(disputeId, outcome, split);
        address appellant = posterAppeals ? users.poster : users.performer;
        vm.prank(appellant);
        escrow.appealDispute(disputeId, appellant);
    }

    function testFuzz_DecideAppeal(uint256 reward, uint8 first, uint8 second, uint8 split, bool posterAppeals) external {
        reward = bound(reward, 1, MAX_REWARD);
        Disputes.Outcome o1 = Disputes.Outcome(bound(first, 1, 4));
        uint256 disputeId = appealedGuildDispute(
            reward, o1, o1 == Disputes.Outcome.Split ? uint8(bound(split, 1, 99)) : 0, posterAppeals
        );
        Disputes.Outcome o2 = Disputes.Outcome(bound(second, 1, 4));
        uint8 s2 = o2 == Disputes.Outcome.Split ? uint8(bound(uint256(split) * 7, 1, 99)) : 0;

        Balances memory before = balances();
        vm.recordLogs();
        vm.prank(users.appealsResolver);
        escrow.decideAppeal(disputeId, o2, s2, RESOLUTION_HASH);
        (Disputes.Payout memory p,) = finalizedPayout();
        assertPayout(before, p, reward + 2 * escrow.reserveFor(reward));
        assertEq(
            usdc.balanceOf(address(escrow)), escrow.guildFees(guildId) + accruals(), "escrow holds guild fees and the accruals"
        );
    }
}
