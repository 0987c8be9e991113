// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";

import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Ghost state shared by the handlers: what went into and out of the escrow, and any rule the
/// handlers saw broken (the invariants assert these stay at zero).
contract Ghosts {
    uint256 public deposited; // rewards + DDR + LPP pulled in
    uint256 public paidOut; // tokens that left the escrow (payouts, refunds, withdrawals)
    uint256 public payoutMismatches; // a settlement or dispute payout that did not sum to what was held
    uint256 public illegalTransitions;
    uint256 public stuck; // a non-terminal mission or dispute that no call could move after its deadline
    uint256 public surprises; // an escrow call whose outcome (success, or the exact error) the model did not predict
    bytes32 public lastSurprise; // the action of the last surprise, for the failure message
    bytes4 public lastSurpriseError;
    mapping(uint256 missionId => uint256) public timesPaid;
    mapping(uint256 disputeId => uint256) public disputeTimesPaid;
    /// @dev The state each mission / dispute had after the last call the handlers made on it: a state that
    /// moved without a handler call on it moved by a side effect (checked at the end of every run).
    mapping(uint256 missionId => uint8) public seenMissionState;
    mapping(uint256 disputeId => uint8) public seenDisputeState;
    /// @dev Per action, in this run (forge's own table counts calls, reverts and discards over all runs).
    mapping(bytes32 action => uint256) public calls;
    mapping(bytes32 action => uint256) public skips;
    mapping(bytes32 action => uint256) public built;

    function addDeposit(uint256 amount) external {
        deposited += amount;
    }

    function addPaidOut(uint256 amount) external {
        paidOut += amount;
    }

    function flagMismatch() external {
        ++payoutMismatches;
    }

    function flagIllegal() external {
        ++illegalTransitions;
    }

    function flagStuck() external {
        ++stuck;
    }

    function markPaid(uint256 missionId) external {
        ++timesPaid[missionId];
    }

    function markDisputePaid(uint256 disputeId) external {
        ++disputeTimesPaid[disputeId];
    }

    function flagSurprise(bytes32 action, bytes4 error) external {
        ++surprises;
        lastSurprise = action;
        lastSurpriseError = error;
    }

    function seeMission(uint256 missionId, uint8 state) external {
        seenMissionState[missionId] = state;
    }

    function seeDispute(uint256 disputeId, uint8 state) external {
        seenDisputeState[disputeId] = state;
    }

    function countBuilt(bytes32 action) external {
        ++built[action];
    }

    function count(bytes32 action, bool skipped) external {
        ++calls[action];
        if (skipped) ++skips[action];
    }
}

/// @notice Actors, id selection and bookkeeping shared by the mission and dispute handlers.
/// @dev Every action `x(...)` runs `this.doX(...)` and judges how it ended:
/// - the escrow call did what the model predicted: success, or a revert with exactly the predicted error.
///   A predicted revert is re-raised (`Expected()`), so forge's invariant metrics count it as a revert of
///   `x`; nothing changed (and ghosts roll back with it).
/// - anything else (a revert the model did not predict, a success where it predicted a revert, another
///   error, a builder that failed) is recorded in `Ghosts.surprises` and the action returns: the
///   invariant `invariant_NoSurprises` fails the campaign. So `fail_on_revert = false` hides nothing.
/// About 1 call in 16 per action is a deliberate misuse (a stranger acting, or a deadline not reached)
/// that the escrow must refuse with the right error; every other call must succeed. An action with
/// nothing to do is discarded (`vm.assume(false)`, forge's "discards").
abstract contract BaseHandler is CommonBase, StdCheats, StdUtils {
    /// @dev A revert the model predicted (re-raised so forge counts it).
    error Expected();
    /// @dev The escrow accepted a call the model says it must refuse.
    error UnexpectedSuccess();

    /// @dev Never an actor, resolver or operator of anyone.
    address public constant STRANGER = address(0x5742A9E4);

    MissionEscrow public immutable escrow;
    TestStablecoin public immutable usdc;
    Ghosts public immutable ghosts;
    address[] public actors;
    address[] public resolvers;
    address public appealsResolver;
    uint32 public guildId;

    constructor(
        MissionEscrow escrow_,
        TestStablecoin usdc_,
        Ghosts ghosts_,
        address[] memory actors_,
        address[] memory resolvers_,
        address appealsResolver_,
        uint32 guildId_
    ) {
        escrow = escrow_;
        usdc = usdc_;
        ghosts = ghosts_;
        actors = actors_;
        resolvers = resolvers_;
        appealsResolver = appealsResolver_;
        guildId = guildId_;
    }

    /// @dev Runs `this.<action>` (ABI-encoded in `data`) and judges how it ended (see the contract notes).
    function run(bytes32 action, bytes memory data) internal {
        (bool ok, bytes memory err) = address(this).call(data);
        if (ok) return;
        if (err.length == 4 && bytes4(err) == Expected.selector) {
            assembly ("memory-safe") {
                revert(add(err, 32), mload(err))
            }
        }
        ghosts.flagSurprise(action, err.length >= 4 ? bytes4(err) : bytes4(0));
    }

    /// @dev Deliberate misuse for about 1 call in 16, decided by a hash so that the fuzzer's favourite
    /// inputs (0, 1, max) are not all misuses.
    function misuse(uint256 seed, bytes32 action) internal pure returns (bool) {
        return uint256(keccak256(abi.encode(seed, action))) % 16 == 0;
    }

    /// @dev Makes the escrow call as `caller` and checks it against the model: `expected` 0 = must
    /// succeed (an unexpected revert bubbles up, raw, and becomes a surprise); else the error it must
    /// revert with (then `Expected()`).
    function callEscrow(address caller, bytes memory data, bytes4 expected) internal returns (bytes memory out) {
        bool ok;
        vm.prank(caller);
        (ok, out) = address(escrow).call(data);
        if (expected == bytes4(0)) {
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(out, 32), mload(out))
                }
            }
            return out;
        }
        if (ok) revert UnexpectedSuccess();
        if (out.length >= 4 && bytes4(out) == expected) revert Expected();
        assembly ("memory-safe") {
            revert(add(out, 32), mload(out))
        }
    }

    function seeMission(uint256 id) internal {
        ghosts.seeMission(id, uint8(escrow.getMission(id).state));
    }

    function seeDispute(uint256 disputeId) internal {
        Disputes.Dispute memory d = escrow.getDispute(disputeId);
        ghosts.seeDispute(disputeId, uint8(d.state));
        seeMission(d.missionId);
    }

    function actorCount() external view returns (uint256) {
        return actors.length;
    }

    function actor(uint256 seed) internal view returns (address) {
        return actors[seed % actors.length];
    }

    /// @dev The first mission in `state`, scanning from a random start; 0 if none.
    function findMission(uint256 seed, Missions.State state) internal view returns (uint256) {
        uint256 n = escrow.missionCount();
        if (n == 0) return 0;
        // Probe the most recent missions first: older ones are mostly terminal.
        uint256 probes = n < 16 ? n : 16;
        for (uint256 i; i < probes; ++i) {
            uint256 id = n - (seed % probes + i) % probes;
            if (escrow.getMission(id).state == state) return id;
        }
        return 0;
    }

    /// @dev The first dispute in `state`, scanning from a random start; 0 if none.
    function findDispute(uint256 seed, Disputes.State state) internal view returns (uint256) {
        uint256 n = escrow.disputeCount();
        if (n == 0) return 0;
        uint256 probes = n < 16 ? n : 16;
        for (uint256 i; i < probes; ++i) {
            uint256 id = n - (seed % probes + i) % probes;
            if (escrow.getDispute(id).state == state) return id;
        }
        return 0;
    }

    function mission(uint256 id) internal view returns (Missions.Mission memory) {
        return escrow.getMission(id);
    }

    function dispute(uint256 id) internal view returns (Disputes.Dispute memory) {
        return escrow.getDispute(id);
    }

    /// @dev The allowed mission transitions of docs/decisions.md.
    function checkTransition(Missions.State from, Missions.State to) internal {
        if (from == to) return;
        bool ok;
        if (from == Missions.State.Open) {
            ok = to == Missions.State.Accepted || to == Missions.State.Cancelled || to == Missions.State.Expired;
        } else if (from == Missions.State.Accepted) {
            // Completed / Cancelled: the whole remainder released / refunded.
            ok = to == Missions.State.Submitted || to == Missions.State.Expired || to == Missions.State.Completed
                || to == Missions.State.Cancelled;
        } else if (from == Missions.State.Submitted) {
            // Cancelled: the whole remainder refunded, or a settlement of 0 to the performer.
            ok = to == Missions.State.Completed || to == Missions.State.Disputed || to == Missions.State.Cancelled;
        } else if (from == Missions.State.Disputed) {
            ok = to == Missions.State.Completed || to == Missions.State.Cancelled;
        }
        if (!ok) ghosts.flagIllegal();
    }

    /// @dev The allowed dispute transitions of docs/decisions.md: forward only, except a release
    /// (Investigating -> Pending) after a silent resolver's deadline.
    function checkDisputeTransition(Disputes.State from, Disputes.State to) internal {
        if (from == to) return;
        bool ok;
        if (from == Disputes.State.None) ok = to == Disputes.State.Pending;
        else if (from == Disputes.State.Pending) ok = to == Disputes.State.Investigating || to == Disputes.State.Finalized;
        else if (from == Disputes.State.Investigating) {
            ok = to == Disputes.State.Pending || to == Disputes.State.Resolved || to == Disputes.State.Finalized;
        } else if (from == Disputes.State.Resolved) {
            ok = to == Disputes.State.Appealed || to == Disputes.State.Finalized;
        } else if (from == Disputes.State.Appealed) {
            ok = to == Disputes.State.Finalized;
        }
        if (!ok) ghosts.flagIllegal();
    }

    /// @dev What the escrow holds for others than this mission's parties: credits, guild fees, the
    /// resolver pool and the protocol and labs fees not yet withdrawn.
    function heldElsewhere() internal view returns (uint256 total) {
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        total = escrow.guildFees(guildId) + escrow.resolverPool() + protocolFees + labsFees;
        for (uint256 i; i < actors.length; ++i) {
            total += escrow.credits(actors[i]);
        }
    }

    /// @dev Records that `amount` held for a mission was released by the last call: tokens out plus the
    /// change of what is held elsewhere (credits, guild fees, the pool; the pool may shrink when it pays a
    /// resolver) must equal it.
    function checkReleased(uint256 balanceBefore, uint256 elsewhereBefore, uint256 amount) internal {
        uint256 out = balanceBefore - usdc.balanceOf(address(escrow));
        if (out + heldElsewhere() != amount + elsewhereBefore) ghosts.flagMismatch();
        ghosts.addPaidOut(out);
    }

    /*//////////////////////////////////////////////////////////////
                 BUILDERS (used when no mission is eligible)
    //////////////////////////////////////////////////////////////*/

    function newMission(uint256 seed) internal returns (uint256 id) {
        address poster = actor(seed);
        uint256 reward = _bound(seed, 1, type(uint48).max);
        vm.prank(poster);
        id = escrow.createMission(poster, reward, block.timestamp + 30 days, seed % 2 == 0 ? guildId : 0, "details");
        ghosts.addDeposit(reward);
        seeMission(id);
    }

    function newAccepted(uint256 seed) internal returns (uint256 id) {
        id = newMission(seed);
        address performer = actor(seed % actors.length + 1);
        vm.prank(performer);
        escrow.acceptMission(id, performer, "details");
        seeMission(id);
    }

    function newSubmitted(uint256 seed) internal returns (uint256 id) {
        id = newAccepted(seed);
        vm.prank(mission(id).performer);
        escrow.submitProof(id, "proof");
        seeMission(id);
    }

    function newDispute(uint256 seed) internal returns (uint256 disputeId) {
        uint256 id = newSubmitted(seed);
        address initiator = seed % 3 == 0 ? mission(id).performer : mission(id).poster;
        vm.prank(initiator);
        disputeId = escrow.raiseDispute(id, initiator, "reason");
        ghosts.addDeposit(escrow.reserveFor(escrow.remainingOf(id)));
        seeDispute(disputeId);
    }

    function newInvestigating(uint256 seed) internal returns (uint256 disputeId) {
        disputeId = newDispute(seed);
        address resolver = resolvers[seed % resolvers.length];
        vm.prank(resolver);
        escrow.takeDispute(disputeId, resolver);
        seeDispute(disputeId);
    }

    function newResolved(uint256 seed) internal returns (uint256 disputeId) {
        disputeId = newInvestigating(seed);
        vm.prank(dispute(disputeId).resolver);
        escrow.resolveDispute(disputeId, Disputes.Outcome(seed % 4 + 1), seed % 4 == 2 ? 50 : 0, "resolution");
        seeDispute(disputeId);
    }

    function newAppealed(uint256 seed) internal returns (uint256 disputeId) {
        disputeId = newResolved(seed);
        Missions.Mission memory m = mission(dispute(disputeId).missionId);
        address appellant = seed % 2 == 0 ? m.poster : m.performer;
        vm.prank(appellant);
        escrow.appealDispute(disputeId, appellant);
        ghosts.addDeposit(escrow.reserveFor(escrow.remainingOf(dispute(disputeId).missionId)));
        seeDispute(disputeId);
    }

    function warpBy(uint256 seconds_) internal {
        vm.warp(block.timestamp + seconds_);
    }
}
