// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {console2} from "forge-std/console2.sol";

import {Base} from "../Base.t.sol";
import {Ghosts} from "./handlers/BaseHandler.sol";
import {DisputeHandler} from "./handlers/DisputeHandler.sol";
import {MissionHandler} from "./handlers/MissionHandler.sol";
import {SettlementHandler} from "./handlers/SettlementHandler.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice The escrow owes exactly what it holds, pays every mission and dispute once, in full, moves
/// states only forward and never gets stuck; every call it refuses is one the model predicted.
/// @dev `npm test` runs 250 runs × depth 100 per invariant (3 campaigns, 75,000 calls, ≈ 2 min on 2 cores);
/// `FOUNDRY_PROFILE=deep` runs the full 1,000 runs (≈ 10 min). The handlers pick ids themselves, so the storage dictionary
/// only slows the campaign down. `fail_on_revert = false` so that forge's metrics table (calls, reverts,
/// discards per handler action, over all runs) counts the predicted refusals; an unpredicted revert never
/// reaches forge: the handler records it and `invariant_NoSurprises` fails (see BaseHandler).
/// forge-config: default.invariant.dictionary.include_storage = false
/// forge-config: default.invariant.fail_on_revert = false
/// forge-config: default.invariant.show_metrics = true
/// forge-config: default.invariant.runs = 250
/// forge-config: deep.invariant.dictionary.include_storage = false
/// forge-config: deep.invariant.fail_on_revert = false
/// forge-config: deep.invariant.show_metrics = true
/// forge-config: deep.invariant.runs = 1000
contract Escrow_Invariant_Test is Base {
    Ghosts internal ghosts;
    MissionHandler internal missionHandler;
    DisputeHandler internal disputeHandler;
    SettlementHandler internal settlementHandler;
    address[] internal actors;
    address[] internal resolvers;

    function setUp() public override {
        super.setUp();
        for (uint256 i; i < 4; ++i) {
            address a = makeAddr(string.concat("Actor", vm.toString(i)));
            actors.push(a);
            fund(a);
        }
        resolvers.push(users.resolver);
        address second = makeAddr("Resolver2");
        resolvers.push(second);
        bytes32 role = escrow.RESOLVER_ROLE();
        vm.prank(users.admin);
        escrow.grantRole(role, second);

        ghosts = new Ghosts();
        missionHandler =
            new MissionHandler(escrow, usdc, ghosts, actors, resolvers, users.appealsResolver, guildId);
        disputeHandler =
            new DisputeHandler(escrow, usdc, ghosts, actors, resolvers, users.appealsResolver, guildId);
        targetContract(address(missionHandler));
        targetContract(address(disputeHandler));
        // Only the actions: the handlers' doX bodies are for their own try/judge wrapper.
        bytes4[] memory missionActions = new bytes4[](11);
        missionActions[0] = MissionHandler.createMission.selector;
        missionActions[1] = MissionHandler.updateDetails.selector;
        missionActions[2] = MissionHandler.acceptMission.selector;
        missionActions[3] = MissionHandler.submitProof.selector;
        missionActions[4] = MissionHandler.approveMission.selector;
        missionActions[5] = MissionHandler.claimAfterReview.selector;
        missionActions[6] = MissionHandler.cancelMission.selector;
        missionActions[7] = MissionHandler.expireMission.selector;
        missionActions[8] = MissionHandler.warp.selector;
        missionActions[9] = MissionHandler.withdrawGuildFees.selector;
        missionActions[10] = MissionHandler.withdrawFees.selector;
        targetSelector(FuzzSelector({addr: address(missionHandler), selectors: missionActions}));
        bytes4[] memory disputeActions = new bytes4[](10);
        disputeActions[0] = DisputeHandler.raiseDispute.selector;
        disputeActions[1] = DisputeHandler.submitEvidence.selector;
        disputeActions[2] = DisputeHandler.takeDispute.selector;
        disputeActions[3] = DisputeHandler.releaseDispute.selector;
        disputeActions[4] = DisputeHandler.resolveDispute.selector;
        disputeActions[5] = DisputeHandler.appealDispute.selector;
        disputeActions[6] = DisputeHandler.decideAppeal.selector;
        disputeActions[7] = DisputeHandler.finalizeResolved.selector;
        disputeActions[8] = DisputeHandler.finalizeUndecidedAppeal.selector;
        disputeActions[9] = DisputeHandler.finalizeTimeout.selector;
        targetSelector(FuzzSelector({addr: address(disputeHandler), selectors: disputeActions}));
        settlementHandler =
            new SettlementHandler(escrow, usdc, ghosts, actors, resolvers, users.appealsResolver, guildId);
        targetContract(address(settlementHandler));
        bytes4[] memory settlementActions = new bytes4[](5);
        settlementActions[0] = SettlementHandler.releasePartial.selector;
        settlementActions[1] = SettlementHandler.refundPartial.selector;
        settlementActions[2] = SettlementHandler.offerSettlement.selector;
        settlementActions[3] = SettlementHandler.withdrawSettlement.selector;
        settlementActions[4] = SettlementHandler.acceptSettlement.selector;
        targetSelector(FuzzSelector({addr: address(settlementHandler), selectors: settlementActions}));
        excludeSender(address(0));
    }

    /// @dev Everything the escrow owes, read from its storage.
    function owed() internal view returns (uint256 total) {
        uint256 n = escrow.missionCount();
        for (uint256 id = 1; id <= n; ++id) {
            Missions.Mission memory m = escrow.getMission(id);
            if (
                m.state == Missions.State.Open || m.state == Missions.State.Accepted
                    || m.state == Missions.State.Submitted || m.state == Missions.State.Disputed
            ) total += escrow.remainingOf(id);
        }
        n = escrow.disputeCount();
        for (uint256 id = 1; id <= n; ++id) {
            Disputes.Dispute memory d = escrow.getDispute(id);
            if (d.state != Disputes.State.Finalized) total += uint256(d.ddrAmount) + d.lppAmount;
        }
        total += escrow.guildFees(guildId) + escrow.resolverPool();
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        total += protocolFees + labsFees;
        for (uint256 i; i < actors.length; ++i) {
            total += escrow.credits(actors[i]);
        }
        total += escrow.credits(users.protocolTreasury) + escrow.credits(users.labsTreasury);
        total += escrow.credits(resolvers[0]) + escrow.credits(resolvers[1]);
    }

    /// @dev One campaign checks the money: each invariant_ function runs its own 1,000 x 100 campaign.
    function invariant_EscrowSolvent() external view {
        uint256 balance = usdc.balanceOf(address(escrow));
        assertEq(ghosts.deposited() - ghosts.paidOut(), balance, "deposited - paid out == balance");
        assertEq(ghosts.payoutMismatches(), 0, "every settlement and dispute payout sums exactly to what was held");
    }

    /// @dev One campaign checks the lifecycle: legal transitions, paid once, a deadline on every live state.
    function invariant_Lifecycle() external view {
        assertEq(ghosts.illegalTransitions(), 0, "only the transitions of docs/decisions.md");
        assertEq(ghosts.stuck(), 0, "nothing stuck");
    }

    /// @dev Every escrow call ended as the model predicted: success, or a refusal with the predicted error.
    function invariant_NoSurprises() external view {
        if (ghosts.surprises() != 0) {
            console2.log("surprise in action", string(abi.encodePacked(ghosts.lastSurprise())));
            console2.logBytes4(ghosts.lastSurpriseError());
        }
        assertEq(ghosts.surprises(), 0, "an escrow call the model did not predict");
    }

    /// @dev Each dispute paid out (reward + DDR + LPP) exactly once, exactly when Finalized; no mission or
    /// dispute changed state except by a call made on it (a side effect would show here).
    function disputesPaidOnceAndNoHiddenMoves() internal view {
        uint256 n = escrow.disputeCount();
        for (uint256 id = 1; id <= n; ++id) {
            Disputes.State s = escrow.getDispute(id).state;
            assertEq(ghosts.disputeTimesPaid(id), s == Disputes.State.Finalized ? 1 : 0, "dispute paid once, when final");
            assertEq(ghosts.seenDisputeState(id), uint8(s), "dispute state moved only by a call on it");
        }
        n = escrow.missionCount();
        for (uint256 id = 1; id <= n; ++id) {
            assertEq(ghosts.seenMissionState(id), uint8(escrow.getMission(id).state), "mission moved only by a call on it");
        }
    }

    function noMissionPaidTwice() internal view {
        uint256 n = escrow.missionCount();
        for (uint256 id = 1; id <= n; ++id) {
            assertLe(ghosts.timesPaid(id), 1, "paid at most once");
            Missions.State s = escrow.getMission(id).state;
            bool terminal =
                s == Missions.State.Completed || s == Missions.State.Cancelled || s == Missions.State.Expired;
            assertEq(ghosts.timesPaid(id), terminal ? 1 : 0, "paid exactly when terminal");
        }
    }

    /// @dev Every non-terminal mission and dispute carries a deadline after which some call moves it
    /// (the handlers' keeper actions warp to it and make that call, which must not revert).
    function everyLiveStateHasADeadline() internal view {
        uint256 n = escrow.missionCount();
        for (uint256 id = 1; id <= n; ++id) {
            Missions.Mission memory m = escrow.getMission(id);
            if (m.state == Missions.State.Open || m.state == Missions.State.Accepted) {
                assertGt(m.expiresAt, 0, "expiry");
            } else if (m.state == Missions.State.Submitted) {
                assertGt(m.reviewDeadline, 0, "review deadline");
            } else if (m.state == Missions.State.Disputed) {
                Disputes.Dispute memory d = escrow.getDispute(escrow.disputeOf(id));
                assertTrue(d.state != Disputes.State.None && d.state != Disputes.State.Finalized, "live dispute");
                assertGt(d.deadline, 0, "dispute deadline");
                assertGt(d.timeoutAt, 0, "dispute timeout");
            }
        }
    }

    /// @dev The O(missions) checks run once at the end of every run (each call is already checked by
    /// the O(1) invariants above), which keeps 1,000 x 100 campaigns fast.
    function afterInvariant() external view {
        assertEq(usdc.balanceOf(address(escrow)), owed(), "balance == remainders + DDR/LPP + credits + guild fees + resolver pool + protocol and labs fees");
        noMissionPaidTwice();
        disputesPaidOnceAndNoHiddenMoves();
        everyLiveStateHasADeadline();
        callSummary();
    }

    /// @dev Logs this run's successful calls, skips and built targets per action (run with -vv; the last
    /// run's). Forge's metrics table gives calls, reverts and discards over all runs.
    function callSummary() internal view {
        string[26] memory names = [
            "createMission", "updateDetails", "acceptMission", "submitProof", "approveMission", "claimAfterReview",
            "cancelMission", "expireMission", "warp", "withdrawGuildFees", "raiseDispute", "submitEvidence",
            "takeDispute", "releaseDispute", "resolveDispute", "appealDispute", "decideAppeal", "finalizeResolved",
            "finalizeUndecidedAppeal", "finalizeTimeout", "releasePartial", "refundPartial", "offerSettlement",
            "withdrawSettlement", "acceptSettlement", "withdrawFees"
        ];
        uint256 calls;
        uint256 built;
        for (uint256 i; i < names.length; ++i) {
            bytes32 key = bytes32(bytes(names[i]));
            calls += ghosts.calls(key);
            built += ghosts.built(key);
            console2.log(names[i], ghosts.calls(key), ghosts.built(key));
        }
        console2.log("this run: succeeded / of them on a target the handler built:", calls, built);
        console2.log("missions / disputes:", escrow.missionCount(), escrow.disputeCount());
    }
}
