// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHandler, Ghosts} from "./BaseHandler.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice Drives missions through create, update, accept, submit, approve, claim, cancel and expire,
/// plus time warps and guild fee withdrawals.
contract MissionHandler is BaseHandler {
    bytes32 internal constant DETAILS = keccak256("details");

    constructor(
        MissionEscrow escrow_,
        TestStablecoin usdc_,
        Ghosts ghosts_,
        address[] memory actors_,
        address[] memory resolvers_,
        address appealsResolver_,
        uint32 guildId_
    ) BaseHandler(escrow_, usdc_, ghosts_, actors_, resolvers_, appealsResolver_, guildId_) {}

    function createMission(uint256 actorSeed, uint256 reward, uint256 duration, bool inGuild) external {
        address poster = actor(actorSeed);
        reward = _bound(reward, 1, 1e18);
        duration = _bound(duration, 60, 60 days);
        vm.prank(poster);
        uint256 id = escrow.createMission(poster, reward, block.timestamp + duration, inGuild ? guildId : 0, DETAILS);
        ghosts.addDeposit(reward);
        ghosts.count("createMission", false);
        if (mission(id).state != Missions.State.Open) ghosts.flagIllegal();
    }

    function updateDetails(uint256 seed, bytes32 newHash) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = newMission(seed);
        Missions.Mission memory m = mission(id);
        ghosts.count("updateDetails", false);
        // Keep the hash accept binds to predictable: toggle between two non-zero values.
        newHash = newHash == bytes32(0) ? DETAILS : newHash;
        vm.prank(m.poster);
        escrow.updateDetails(id, newHash);
    }

    function acceptMission(uint256 seed, uint256 actorSeed) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = newMission(seed);
        Missions.Mission memory m = mission(id);
        address performer = actor(actorSeed);
        if (performer == m.poster) performer = actor(actorSeed % actors.length + 1);
        ghosts.count("acceptMission", false);
        vm.prank(performer);
        escrow.acceptMission(id, performer, m.detailsHash);
        checkTransition(Missions.State.Open, mission(id).state);
    }

    function submitProof(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Accepted);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = newAccepted(seed);
        Missions.Mission memory m = mission(id);
        ghosts.count("submitProof", false);
        vm.prank(m.performer);
        escrow.submitProof(id, keccak256("proof"));
        checkTransition(Missions.State.Accepted, mission(id).state);
    }

    function approveMission(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0) id = newSubmitted(seed);
        ghosts.count("approveMission", false);
        Missions.Mission memory m = mission(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        vm.prank(m.poster);
        Missions.Settlement memory s = escrow.approveMission(id);
        settled(id, m.reward, s, balanceBefore, elsewhereBefore);
    }

    function claimAfterReview(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0) id = newSubmitted(seed);
        Missions.Mission memory m = mission(id);
        // The path out of a silent poster: after the review window anyone claims.
        if (block.timestamp < m.reviewDeadline) vm.warp(m.reviewDeadline);
        ghosts.count("claimAfterReview", false);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        Missions.Settlement memory s = escrow.claimAfterReview(id);
        settled(id, m.reward, s, balanceBefore, elsewhereBefore);
    }

    function cancelMission(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0) id = newMission(seed);
        ghosts.count("cancelMission", false);
        Missions.Mission memory m = mission(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        vm.prank(m.poster);
        escrow.cancelMission(id);
        refunded(id, Missions.State.Open, m.reward, balanceBefore, elsewhereBefore);
    }

    function expireMission(uint256 seed, bool accepted) external {
        Missions.State state = accepted ? Missions.State.Accepted : Missions.State.Open;
        uint256 id = findMission(seed, state);
        if (id == 0) (state, id) = (Missions.State.Open, findMission(seed, Missions.State.Open));
        if (id == 0) id = newMission(seed);
        Missions.Mission memory m = mission(id);
        ghosts.count("expireMission", false);
        // The keeper's path out: past the expiry, expiring always works.
        if (block.timestamp < m.expiresAt) vm.warp(m.expiresAt);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        escrow.expireMission(id);
        refunded(id, state, m.reward, balanceBefore, elsewhereBefore);
    }

    function warp(uint256 seconds_) external {
        ghosts.count("warp", false);
        warpBy(_bound(seconds_, 1, 10 days));
    }

    function withdrawGuildFees() external {
        uint256 amount = escrow.guildFees(guildId);
        ghosts.count("withdrawGuildFees", amount == 0);
        if (amount == 0) return;
        escrow.withdrawGuildFees(guildId);
        ghosts.addPaidOut(amount);
    }

    function settled(
        uint256 id,
        uint256 reward,
        Missions.Settlement memory s,
        uint256 balanceBefore,
        uint256 elsewhereBefore
    ) internal {
        uint256 sum = s.performerAmount + s.protocolAmount + s.guildAmount + s.labsAmount + s.resolverAmount;
        if (sum != reward) ghosts.flagMismatch();
        checkReleased(balanceBefore, elsewhereBefore, reward);
        ghosts.markPaid(id);
        checkTransition(Missions.State.Submitted, mission(id).state);
    }

    function refunded(uint256 id, Missions.State from, uint256 reward, uint256 balanceBefore, uint256 elsewhereBefore)
        internal
    {
        checkReleased(balanceBefore, elsewhereBefore, reward);
        ghosts.markPaid(id);
        checkTransition(from, mission(id).state);
    }
}
