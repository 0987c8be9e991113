// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {BaseHandler, Ghosts} from "./BaseHandler.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice Drives missions through create, update, accept, submit, approve, claim, cancel and expire,
/// plus time warps and guild fee withdrawals. Each action `x` runs `this.doX` (see BaseHandler): the
/// escrow call either does what the model predicts or the campaign fails.
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

    /*//////////////////////////////////////////////////////////////
                    ACTIONS (the fuzzer's targets)
    //////////////////////////////////////////////////////////////*/

    function createMission(uint256 actorSeed, uint256 reward, uint256 duration, bool inGuild) external {
        run("createMission", abi.encodeCall(this.doCreateMission, (actorSeed, reward, duration, inGuild)));
    }

    function updateDetails(uint256 seed, bytes32 newHash) external {
        run("updateDetails", abi.encodeCall(this.doUpdateDetails, (seed, newHash)));
    }

    function acceptMission(uint256 seed, uint256 actorSeed) external {
        run("acceptMission", abi.encodeCall(this.doAcceptMission, (seed, actorSeed)));
    }

    function submitProof(uint256 seed) external {
        run("submitProof", abi.encodeCall(this.doSubmitProof, (seed)));
    }

    function approveMission(uint256 seed) external {
        run("approveMission", abi.encodeCall(this.doApproveMission, (seed)));
    }

    function claimAfterReview(uint256 seed) external {
        run("claimAfterReview", abi.encodeCall(this.doClaimAfterReview, (seed)));
    }

    function cancelMission(uint256 seed) external {
        run("cancelMission", abi.encodeCall(this.doCancelMission, (seed)));
    }

    function expireMission(uint256 seed, bool accepted) external {
        run("expireMission", abi.encodeCall(this.doExpireMission, (seed, accepted)));
    }

    function warp(uint256 seconds_) external {
        ghosts.count("warp", false);
        warpBy(_bound(seconds_, 1, 10 days));
    }

    function withdrawGuildFees() external {
        uint256 amount = escrow.guildFees(guildId);
        vm.assume(amount != 0); // nothing accrued: a discard, not a call
        run("withdrawGuildFees", abi.encodeCall(this.doWithdrawGuildFees, ()));
    }

    function withdrawFees() external {
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        vm.assume(protocolFees + labsFees != 0); // nothing accrued: a discard, not a call
        run("withdrawFees", abi.encodeCall(this.doWithdrawFees, ()));
    }

    /*//////////////////////////////////////////////////////////////
                 BODIES (called by the actions only)
    //////////////////////////////////////////////////////////////*/

    function doCreateMission(uint256 actorSeed, uint256 reward, uint256 duration, bool inGuild) external {
        address poster = actor(actorSeed);
        reward = _bound(reward, 1, type(uint48).max);
        duration = _bound(duration, 60, 60 days);
        bytes memory data = abi.encodeCall(
            escrow.createMission, (poster, reward, block.timestamp + duration, inGuild ? guildId : 0, DETAILS)
        );
        if (misuse(actorSeed, "createMission")) {
            callEscrow(STRANGER, data, Errors.Unauthorized.selector); // a stranger cannot lock a poster's funds
        }
        uint256 id = abi.decode(callEscrow(poster, data, 0), (uint256));
        ghosts.addDeposit(reward);
        ghosts.count("createMission", false);
        if (mission(id).state != Missions.State.Open) ghosts.flagIllegal();
        seeMission(id);
    }

    function doUpdateDetails(uint256 seed, bytes32 newHash) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = built("updateDetails", newMission(seed));
        Missions.Mission memory m = mission(id);
        // Keep the hash accept binds to predictable: toggle between two non-zero values.
        newHash = newHash == bytes32(0) ? DETAILS : newHash;
        bytes memory data = abi.encodeCall(escrow.updateDetails, (id, newHash));
        if (misuse(seed, "updateDetails")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotPoster.selector);
        callEscrow(m.poster, data, 0);
        ghosts.count("updateDetails", false);
        if (mission(id).detailsHash != newHash) ghosts.flagIllegal();
    }

    function doAcceptMission(uint256 seed, uint256 actorSeed) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = built("acceptMission", newMission(seed));
        Missions.Mission memory m = mission(id);
        address performer = actor(actorSeed);
        if (performer == m.poster) performer = actor(actorSeed % actors.length + 1);
        if (misuse(seed, "acceptMission")) {
            // The poster cannot perform its own mission.
            callEscrow(
                m.poster,
                abi.encodeCall(escrow.acceptMission, (id, m.poster, m.detailsHash)),
                Errors.MissionEscrow_PosterCannotPerform.selector
            );
        }
        callEscrow(performer, abi.encodeCall(escrow.acceptMission, (id, performer, m.detailsHash)), 0);
        ghosts.count("acceptMission", false);
        checkTransition(Missions.State.Open, mission(id).state);
        seeMission(id);
    }

    function doSubmitProof(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Accepted);
        if (id == 0 || block.timestamp >= mission(id).expiresAt) id = built("submitProof", newAccepted(seed));
        Missions.Mission memory m = mission(id);
        bytes memory data = abi.encodeCall(escrow.submitProof, (id, keccak256("proof")));
        if (misuse(seed, "submitProof")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotPerformer.selector);
        callEscrow(m.performer, data, 0);
        ghosts.count("submitProof", false);
        checkTransition(Missions.State.Accepted, mission(id).state);
        seeMission(id);
    }

    function doApproveMission(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0) id = built("approveMission", newSubmitted(seed));
        Missions.Mission memory m = mission(id);
        bytes memory data = abi.encodeCall(escrow.approveMission, (id));
        if (misuse(seed, "approveMission")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotPoster.selector);
        uint256 remainder = escrow.remainingOf(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        Missions.Settlement memory s = abi.decode(callEscrow(m.poster, data, 0), (Missions.Settlement));
        ghosts.count("approveMission", false);
        settled(id, remainder, s, balanceBefore, elsewhereBefore);
    }

    function doClaimAfterReview(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Submitted);
        if (id == 0) id = built("claimAfterReview", newSubmitted(seed));
        Missions.Mission memory m = mission(id);
        bytes memory data = abi.encodeCall(escrow.claimAfterReview, (id));
        if (block.timestamp < m.reviewDeadline) {
            if (misuse(seed, "claimAfterReview")) {
                callEscrow(STRANGER, data, Errors.MissionEscrow_ReviewWindowOpen.selector); // too early
            }
            // The path out of a silent poster: after the review window anyone claims.
            vm.warp(m.reviewDeadline);
        }
        uint256 remainder = escrow.remainingOf(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        Missions.Settlement memory s = abi.decode(callEscrow(STRANGER, data, 0), (Missions.Settlement));
        ghosts.count("claimAfterReview", false);
        settled(id, remainder, s, balanceBefore, elsewhereBefore);
    }

    function doCancelMission(uint256 seed) external {
        uint256 id = findMission(seed, Missions.State.Open);
        if (id == 0) id = built("cancelMission", newMission(seed));
        Missions.Mission memory m = mission(id);
        bytes memory data = abi.encodeCall(escrow.cancelMission, (id));
        if (misuse(seed, "cancelMission")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotPoster.selector);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        callEscrow(m.poster, data, 0);
        ghosts.count("cancelMission", false);
        refunded(id, Missions.State.Open, m.reward, balanceBefore, elsewhereBefore);
    }

    function doExpireMission(uint256 seed, bool accepted) external {
        Missions.State state = accepted ? Missions.State.Accepted : Missions.State.Open;
        uint256 id = findMission(seed, state);
        if (id == 0) (state, id) = (Missions.State.Open, findMission(seed, Missions.State.Open));
        if (id == 0) id = built("expireMission", newMission(seed));
        Missions.Mission memory m = mission(id);
        bytes memory data = abi.encodeCall(escrow.expireMission, (id));
        if (block.timestamp < m.expiresAt) {
            if (misuse(seed, "expireMission")) callEscrow(STRANGER, data, Errors.MissionEscrow_NotExpired.selector);
            // The keeper's path out: past the expiry, expiring always works.
            vm.warp(m.expiresAt);
        }
        uint256 remainder = escrow.remainingOf(id);
        (uint256 balanceBefore, uint256 elsewhereBefore) = (usdc.balanceOf(address(escrow)), heldElsewhere());
        callEscrow(STRANGER, data, 0);
        ghosts.count("expireMission", false);
        refunded(id, state, remainder, balanceBefore, elsewhereBefore);
    }

    function doWithdrawGuildFees() external {
        uint256 amount = escrow.guildFees(guildId);
        callEscrow(STRANGER, abi.encodeCall(escrow.withdrawGuildFees, (guildId)), 0);
        ghosts.addPaidOut(amount);
        ghosts.count("withdrawGuildFees", false);
        if (escrow.guildFees(guildId) != 0) ghosts.flagMismatch();
    }

    /// @dev Anyone pays the protocol and labs fees out: exactly the accrued sums leave the escrow, the
    /// accruals are cleared, the pool is untouched.
    function doWithdrawFees() external {
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        (uint256 balanceBefore, uint256 poolBefore) = (usdc.balanceOf(address(escrow)), escrow.resolverPool());
        bytes memory out = callEscrow(STRANGER, abi.encodeCall(escrow.withdrawFees, ()), 0);
        (uint256 protocolPaid, uint256 labsPaid) = abi.decode(out, (uint256, uint256));
        ghosts.addPaidOut(protocolFees + labsFees);
        ghosts.count("withdrawFees", false);
        (uint256 p, uint256 l) = escrow.accruedFees();
        if (
            p != 0 || l != 0 || protocolPaid != protocolFees || labsPaid != labsFees
                || balanceBefore - usdc.balanceOf(address(escrow)) != protocolFees + labsFees
                || escrow.resolverPool() != poolBefore
        ) ghosts.flagMismatch();
    }

    /*//////////////////////////////////////////////////////////////
                               CHECKS
    //////////////////////////////////////////////////////////////*/

    function built(bytes32 action, uint256 id) internal returns (uint256) {
        ghosts.countBuilt(action);
        return id;
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
        seeMission(id);
    }

    function refunded(uint256 id, Missions.State from, uint256 reward, uint256 balanceBefore, uint256 elsewhereBefore)
        internal
    {
        checkReleased(balanceBefore, elsewhereBefore, reward);
        ghosts.markPaid(id);
        checkTransition(from, mission(id).state);
        seeMission(id);
    }
}
