// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHandler, Ghosts} from "./BaseHandler.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Drives disputes: raise, take, release, evidence, resolve, appeal, decide, finalize.
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

    function raiseDispute(uint256 seed, bool byPoster) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0 || block.timestamp >= mission(id).reviewDeadline) id = newSubmitted(seed);
        Missions.Mission memory m = mission(id);
        ghosts.count("raiseDispute", false);
        address initiator = byPoster ? m.poster : m.performer;
        uint256 ddr = escrow.reserveFor(m.reward);
        vm.prank(initiator);
        escrow.raiseDispute(id, initiator, keccak256("reason"));
        ghosts.addDeposit(ddr);
        checkTransition(Missions.State.Submitted, mission(id).state);
    }

    function takeDispute(uint256 seed, uint256 resolverSeed) external {
        uint256 id = findDispute(seed, Disputes.State.Pending);
        if (id == 0 || block.timestamp >= dispute(id).timeoutAt) id = newDispute(seed);
        ghosts.count("takeDispute", false);
        address resolver = resolvers[resolverSeed % resolvers.length];
        vm.prank(resolver);
        escrow.takeDispute(id, resolver);
    }

    function releaseDispute(uint256 seed) external {
        uint256 id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0) id = newInvestigating(seed);
        ghosts.count("releaseDispute", false);
        // The path out of a silent resolver: after its deadline anyone releases.
        if (block.timestamp < dispute(id).deadline) vm.warp(dispute(id).deadline);
        escrow.releaseDispute(id);
    }

    function submitEvidence(uint256 seed, bool byPoster, bytes32 evidence) external {
        uint256 id = findDispute(seed, Disputes.State.Pending);
        if (id == 0) id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0) id = newDispute(seed);
        ghosts.count("submitEvidence", false);
        Missions.Mission memory m = mission(dispute(id).missionId);
        address party = byPoster ? m.poster : m.performer;
        vm.prank(party);
        escrow.submitEvidence(id, party, evidence == bytes32(0) ? bytes32(uint256(1)) : evidence);
    }

    function resolveDispute(uint256 seed, uint8 outcomeRaw, uint8 split) external {
        uint256 id = findDispute(seed, Disputes.State.Investigating);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = newInvestigating(seed);
        Disputes.Dispute memory d = dispute(id);
        ghosts.count("resolveDispute", false);
        (Disputes.Outcome outcome, uint8 pct) = boundOutcome(outcomeRaw, split);
        vm.prank(d.resolver);
        escrow.resolveDispute(id, outcome, pct, keccak256("resolution"));
    }

    function appealDispute(uint256 seed, bool byPoster) external {
        uint256 id = findDispute(seed, Disputes.State.Resolved);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = newResolved(seed);
        Disputes.Dispute memory d = dispute(id);
        ghosts.count("appealDispute", false);
        Missions.Mission memory m = mission(d.missionId);
        address appellant = byPoster ? m.poster : m.performer;
        vm.prank(appellant);
        escrow.appealDispute(id, appellant);
        ghosts.addDeposit(escrow.reserveFor(m.reward));
    }

    function decideAppeal(uint256 seed, uint8 outcomeRaw, uint8 split) external {
        uint256 id = findDispute(seed, Disputes.State.Appealed);
        if (id == 0 || block.timestamp >= dispute(id).deadline) id = newAppealed(seed);
        Disputes.Dispute memory d = dispute(id);
        ghosts.count("decideAppeal", false);
        (Disputes.Outcome outcome, uint8 pct) = boundOutcome(outcomeRaw, split);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        vm.prank(appealsResolver);
        escrow.decideAppeal(id, outcome, pct, keccak256("appeal"));
        finalized(d, balanceBefore, elsewhereBefore);
    }

    /// @dev The keeper: any dispute not yet Finalized, warped past the deadline that applies, finalizes.
    function finalizeDispute(uint256 seed, uint8 stateRaw) external {
        Disputes.State state = Disputes.State(_bound(stateRaw, 1, 4));
        uint256 id = findDispute(seed, state);
        for (uint8 s = 1; id == 0 && s <= 4; ++s) {
            id = findDispute(seed, Disputes.State(s));
        }
        if (id == 0) id = newDispute(seed);
        ghosts.count("finalizeDispute", false);
        Disputes.Dispute memory d = dispute(id);
        uint256 deadline = d.state == Disputes.State.Resolved || d.state == Disputes.State.Appealed
            ? d.deadline
            : (d.state == Disputes.State.Investigating && d.deadline > d.timeoutAt ? d.deadline : d.timeoutAt);
        if (block.timestamp < deadline) vm.warp(deadline);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        escrow.finalizeDispute(id);
        finalized(d, balanceBefore, elsewhereBefore);
    }

    function finalized(Disputes.Dispute memory before, uint256 balanceBefore, uint256 elsewhereBefore) internal {
        Disputes.Dispute memory d = dispute(before.missionId == 0 ? 0 : escrow.disputeOf(before.missionId));
        Missions.Mission memory m = mission(before.missionId);
        if (d.state != Disputes.State.Finalized) ghosts.flagIllegal();
        checkReleased(balanceBefore, elsewhereBefore, uint256(m.reward) + d.ddrAmount + d.lppAmount);
        ghosts.markPaid(before.missionId);
        checkTransition(Missions.State.Disputed, m.state);
    }

    function boundOutcome(uint8 outcomeRaw, uint8 split) internal pure returns (Disputes.Outcome outcome, uint8 pct) {
        outcome = Disputes.Outcome(_bound(outcomeRaw, 1, 4));
        pct = outcome == Disputes.Outcome.Split ? uint8(_bound(split, 1, 99)) : 0;
    }
}
