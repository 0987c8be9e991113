// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {BaseHandler, Ghosts} from "./BaseHandler.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Drives disputes and appeals: raise, evidence, take, release, resolve (every outcome), appeal,
/// decide the appeal (upheld or overturned), and the three ways to finalize: after the appeal window,
/// after an undecided appeal, and the default outcome at the timeout (from Pending or Investigating).
/// One action per path, so forge's metrics table shows each path's calls and reverts.
contract DisputeHandler is BaseHandler {
    constructor(
        MissionEscrow escrow_,
        TestStablecoin usdc_,
        Ghosts ghosts_,
        address[] memory actors_,
        address[] memory resolvers_,
        address appealsResolver_,
        uint32 guildId_
    ) BaseHandler(escrow_, usdc_, ghosts_, actors_, resolvers_, appealsResolver_, guildId_) {}

    /*//////////////////////////////////////////////////////////////
                    ACTIONS (the fuzzer's targets)
    //////////////////////////////////////////////////////////////*/

    function raiseDispute(uint256 seed, bool byPoster) external {
        run("raiseDispute", abi.encodeCall(this.doRaiseDispute, (seed, byPoster)));
    }

    function submitEvidence(uint256 seed, bool byPoster, bytes32 evidence) external {
        run("submitEvidence", abi.encodeCall(this.doSubmitEvidence, (seed, byPoster, evidence)));
    }

    function takeDispute(uint256 seed, uint256 resolverSeed) external {
        run("takeDispute", abi.encodeCall(this.doTakeDispute, (seed, resolverSeed)));
    }

    function releaseDispute(uint256 seed) external {
        run("releaseDispute", abi.encodeCall(this.doReleaseDispute, (seed)));
    }

    function resolveDispute(uint256 seed, uint8 outcomeRaw, uint8 split) external {
        run("resolveDispute", abi.encodeCall(this.doResolveDispute, (seed, outcomeRaw, split)));
    }

    function appealDispute(uint256 seed, bool byPoster) external {
        run("appealDispute", abi.encodeCall(this.doAppealDispute, (seed, byPoster)));
    }

    function decideAppeal(uint256 seed, uint8 outcomeRaw, uint8 split, bool uphold) external {
        run("decideAppeal", abi.encodeCall(this.doDecideAppeal, (seed, outcomeRaw, split, uphold)));
    }

    function finalizeResolved(uint256 seed) external {
        run("finalizeResolved", abi.encodeCall(this.doFinalizeResolved, (seed)));
    }

    function finalizeUndecidedAppeal(uint256 seed) external {
        run("finalizeUndecidedAppeal", abi.encodeCall(this.doFinalizeUndecidedAppeal, (seed)));
    }

    function finalizeTimeout(uint256 seed, bool investigating) external {
        run("finalizeTimeout", abi.encodeCall(this.doFinalizeTimeout, (seed, investigating)));
    }

    /*//////////////////////////////////////////////////////////////
                 BODIES (called by the actions only)
    //////////////////////////////////////////////////////////////*/

    function doRaiseDispute(uint256 seed, bool byPoster) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0 || block.timestamp >= mission(id).reviewDeadline) id = built("raiseDispute", newSubmitted(seed));
        Missions.Mission memory m = mission(id);
        address initiator = byPoster ? m.poster : m.performer;
        uint256 ddr = escrow.reserveFor(escrow.remainingOf(id));
        if (misuse(seed, "raiseDispute")) {
            callEscrow(
                STRANGER,
                abi.encodeCall(escrow.raiseDispute, (id, STRANGER, keccak256("reason"))),
                Errors.MissionEscrow_NotParty.selector
            );
        }
        uint256 disputeId = abi.decode(
            callEscrow(initiator, abi.encodeCall(escrow.raiseDispute, (id, initiator, keccak256("reason"))), 0),
            (uint256)
        );
        ghosts.addDeposit(ddr);
        ghosts.count("raiseDispute", false);
        checkTransition(Missions.State.Submitted, mission(id).state);
        checkDisputeTransition(Disputes.State.None, dispute(disputeId).state);
        if (dispute(disputeId).ddrAmount != ddr) ghosts.flagMismatch();
        seeDispute(disputeId);
    }

    function doSubmitEvidence(uint256 seed, bool byPoster, bytes32 evidence) external {
        uint256 id = findDispute(seed, Disputes.State.Pending);
        if (id == 0) id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0) id = built("submitEvidence", newDispute(seed));
        Missions.Mission memory m = mission(dispute(id).missionId);
        evidence = evidence == bytes32(0) ? bytes32(uint256(1)) : evidence;
        if (misuse(seed, "submitEvidence")) {
            callEscrow(
                STRANGER,
                abi.encodeCall(escrow.submitEvidence, (id, STRANGER, evidence)),
                Errors.MissionEscrow_NotParty.selector
            );
        }
        address party = byPoster ? m.poster : m.performer;
        Disputes.State before = dispute(id).state;
        callEscrow(party, abi.encodeCall(escrow.submitEvidence, (id, party, evidence)), 0);
        ghosts.count("submitEvidence", false);
        Disputes.Dispute memory d = dispute(id);
        if ((byPoster ? d.posterEvidenceHash : d.performerEvidenceHash) != evidence) ghosts.flagIllegal();
        checkDisputeTransition(before, d.state);
        seeDispute(id);
    }

    function doTakeDispute(uint256 seed, uint256 resolverSeed) external {
        uint256 id = findDispute(seed, Disputes.State.Pending);
        if (id == 0 || block.timestamp >= dispute(id).timeoutAt) id = built("takeDispute", newDispute(seed));
        address resolver = resolvers[resolverSeed % resolvers.length];
        if (misuse(seed, "takeDispute")) {
            callEscrow(
                STRANGER,
                abi.encodeCall(escrow.takeDispute, (id, STRANGER)),
                IAccessControl.AccessControlUnauthorizedAccount.selector
            );
        }
        callEscrow(resolver, abi.encodeCall(escrow.takeDispute, (id, resolver)), 0);
        ghosts.count("takeDispute", false);
        checkDisputeTransition(Disputes.State.Pending, dispute(id).state);
        if (dispute(id).resolver != resolver) ghosts.flagIllegal();
        seeDispute(id);
    }

    function doReleaseDispute(uint256 seed) external {
        uint256 id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0) id = built("releaseDispute", newInvestigating(seed));
        bytes memory data = abi.encodeCall(escrow.releaseDispute, (id));
        // The path out of a silent resolver: after its deadline anyone releases.
        uint256 deadline = dispute(id).deadline;
        if (block.timestamp < deadline) {
            if (misuse(seed, "releaseDispute")) {
                callEscrow(STRANGER, data, Errors.MissionEscrow_DeadlineNotReached.selector); // too early
            }
            vm.warp(deadline);
        }
        callEscrow(STRANGER, data, 0);
        ghosts.count("releaseDispute", false);
        checkDisputeTransition(Disputes.State.Investigating, dispute(id).state);
        if (dispute(id).resolver != address(0)) ghosts.flagIllegal();
        seeDispute(id);
    }

    function doResolveDispute(uint256 seed, uint8 outcomeRaw, uint8 split) external {
        uint256 id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = built("resolveDispute", newInvestigating(seed));
        Disputes.Dispute memory d = dispute(id);
        (Disputes.Outcome outcome, uint8 pct) = boundOutcome(outcomeRaw, split);
        bytes memory data = abi.encodeCall(escrow.resolveDispute, (id, outcome, pct, keccak256("resolution")));
        if (misuse(seed, "resolveDispute")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotResolver.selector);
        callEscrow(d.resolver, data, 0);
        ghosts.count("resolveDispute", false);
        d = dispute(id);
        if (d.outcome != outcome || d.splitPercentage != pct) ghosts.flagIllegal();
        checkDisputeTransition(Disputes.State.Investigating, d.state);
        seeDispute(id);
    }

    function doAppealDispute(uint256 seed, bool byPoster) external {
        uint256 id = findDispute(seed, Disputes.State.Resolved);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = built("appealDispute", newResolved(seed));
        Disputes.Dispute memory d = dispute(id);
        Missions.Mission memory m = mission(d.missionId);
        if (misuse(seed, "appealDispute")) {
            callEscrow(
                STRANGER, abi.encodeCall(escrow.appealDispute, (id, STRANGER)), Errors.MissionEscrow_NotParty.selector
            );
        }
        address appellant = byPoster ? m.poster : m.performer;
        uint256 lpp = escrow.reserveFor(escrow.remainingOf(d.missionId));
        callEscrow(appellant, abi.encodeCall(escrow.appealDispute, (id, appellant)), 0);
        ghosts.addDeposit(lpp);
        ghosts.count("appealDispute", false);
        checkDisputeTransition(Disputes.State.Resolved, dispute(id).state);
        if (dispute(id).lppAmount != lpp) ghosts.flagMismatch();
        seeDispute(id);
    }

    /// @dev `uphold`: decide as the resolver did (LPP to the other party), else a random outcome.
    function doDecideAppeal(uint256 seed, uint8 outcomeRaw, uint8 split, bool uphold) external {
        uint256 id = findDispute(seed, Disputes.State.Appealed);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = built("decideAppeal", newAppealed(seed));
        Disputes.Dispute memory d = dispute(id);
        (Disputes.Outcome outcome, uint8 pct) =
            uphold ? (d.appealedOutcome, d.appealedSplitPercentage) : boundOutcome(outcomeRaw, split);
        bytes memory data = abi.encodeCall(escrow.decideAppeal, (id, outcome, pct, keccak256("appeal")));
        if (misuse(seed, "decideAppeal")) {
            // The first resolver cannot decide its own appeal (it has no APPEALS_ROLE).
            callEscrow(d.resolver, data, IAccessControl.AccessControlUnauthorizedAccount.selector);
        }
        uint256 held = heldFor(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        callEscrow(appealsResolver, data, 0);
        ghosts.count("decideAppeal", false);
        finalized(id, Disputes.State.Appealed, held, balanceBefore, elsewhereBefore);
    }

    function doFinalizeResolved(uint256 seed) external {
        uint256 id = findDispute(seed, Disputes.State.Resolved);
        if (id == 0) id = built("finalizeResolved", newResolved(seed));
        finalizeAfter(id, dispute(id).deadline, seed, "finalizeResolved");
    }

    function doFinalizeUndecidedAppeal(uint256 seed) external {
        uint256 id = findDispute(seed, Disputes.State.Appealed);
        if (id == 0) id = built("finalizeUndecidedAppeal", newAppealed(seed));
        finalizeAfter(id, dispute(id).deadline, seed, "finalizeUndecidedAppeal");
    }

    /// @dev The default outcome (Split 50 %, no resolver fee) when nobody decided by the timeout; an
    /// assigned resolver keeps its window to the end.
    function doFinalizeTimeout(uint256 seed, bool investigating) external {
        uint256 id = findDispute(seed, investigating ? Disputes.State.Investigating : Disputes.State.Pending);
        if (id == 0) {
            id = built("finalizeTimeout", investigating ? newInvestigating(seed) : newDispute(seed));
        }
        Disputes.Dispute memory d = dispute(id);
        uint256 deadline =
            d.state == Disputes.State.Investigating && d.deadline > d.timeoutAt ? d.deadline : d.timeoutAt;
        finalizeAfter(id, deadline, seed, "finalizeTimeout");
        d = dispute(id);
        if (d.outcome != Disputes.Outcome.Split || d.splitPercentage != 50) ghosts.flagIllegal();
    }

    /*//////////////////////////////////////////////////////////////
                               CHECKS
    //////////////////////////////////////////////////////////////*/

    /// @dev The keeper: warps to `deadline` (a misuse calls before it) and finalizes.
    function finalizeAfter(uint256 id, uint256 deadline, uint256 seed, bytes32 action) internal {
        bytes memory data = abi.encodeCall(escrow.finalizeDispute, (id));
        if (block.timestamp < deadline) {
            if (misuse(seed, action)) callEscrow(STRANGER, data, Errors.MissionEscrow_DeadlineNotReached.selector);
            vm.warp(deadline);
        }
        Disputes.State before = dispute(id).state;
        uint256 held = heldFor(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        callEscrow(STRANGER, data, 0);
        ghosts.count(action, false);
        finalized(id, before, held, balanceBefore, elsewhereBefore);
    }

    /// @dev What the escrow holds for a live dispute: the mission's remainder, the DDR and any LPP.
    function heldFor(uint256 id) internal view returns (uint256) {
        Disputes.Dispute memory d = dispute(id);
        return escrow.remainingOf(d.missionId) + d.ddrAmount + d.lppAmount;
    }

    /// @dev Everything held for the dispute (remainder + DDR + LPP) left or was accrued, exactly once.
    function finalized(uint256 id, Disputes.State before, uint256 held, uint256 balanceBefore, uint256 elsewhereBefore)
        internal
    {
        Disputes.Dispute memory d = dispute(id);
        Missions.Mission memory m = mission(d.missionId);
        if (d.state != Disputes.State.Finalized) ghosts.flagIllegal();
        checkDisputeTransition(before, d.state);
        checkReleased(balanceBefore, elsewhereBefore, held);
        ghosts.markPaid(d.missionId);
        ghosts.markDisputePaid(id);
        checkTransition(Missions.State.Disputed, m.state);
        seeDispute(id);
    }

    function built(bytes32 action, uint256 id) internal returns (uint256) {
        ghosts.countBuilt(action);
        return id;
    }

    function boundOutcome(uint8 outcomeRaw, uint8 split) internal pure returns (Disputes.Outcome outcome, uint8 pct) {
        outcome = Disputes.Outcome(_bound(outcomeRaw, 1, 4));
        pct = outcome == Disputes.Outcome.Split ? uint8(_bound(split, 1, 99)) : 0;
    }
}
