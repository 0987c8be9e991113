// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {console2} from "forge-std/console2.sol";

import {Base} from "../Base.t.sol";
import {Ghosts} from "./handlers/BaseHandler.sol";
import {DisputeHandler} from "./handlers/DisputeHandler.sol";
import {MissionHandler} from "./handlers/MissionHandler.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice The escrow owes exactly what it holds, pays every mission once, in full, and never gets stuck.
/// @dev Runs and depth come from foundry.toml; the handlers pick ids themselves, so the storage dictionary
/// only slows the campaign down.
/// forge-config: default.invariant.dictionary.include_storage = false
contract Escrow_Invariant_Test is Base {
    Ghosts internal ghosts;
    MissionHandler internal missionHandler;
    DisputeHandler internal disputeHandler;
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
            ) total += m.reward;
        }
        n = escrow.disputeCount();
        for (uint256 id = 1; id <= n; ++id) {
            Disputes.Dispute memory d = escrow.getDispute(id);
            if (d.state != Disputes.State.Finalized) total += uint256(d.ddrAmount) + d.lppAmount;
        }
        total += escrow.guildFees(guildId);
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
        assertEq(usdc.balanceOf(address(escrow)), owed(), "balance == rewards + DDR/LPP + credits + guild fees");
        noMissionPaidTwice();
        everyLiveStateHasADeadline();
        callSummary();
    }

    /// @dev Logs calls and skipped calls per action (run with -vv). Handlers never revert
    /// (fail_on_revert), so a call with no eligible mission is a skip instead.
    function callSummary() internal view {
        string[18] memory names = [
            "createMission", "updateDetails", "acceptMission", "submitProof", "approveMission", "claimAfterReview",
            "cancelMission", "expireMission", "warp", "withdrawGuildFees", "raiseDispute", "takeDispute",
            "releaseDispute", "submitEvidence", "resolveDispute", "appealDispute", "decideAppeal", "finalizeDispute"
        ];
        uint256 calls;
        uint256 skips;
        for (uint256 i; i < names.length; ++i) {
            bytes32 key = bytes32(bytes(names[i]));
            calls += ghosts.calls(key);
            skips += ghosts.skips(key);
            console2.log(names[i], ghosts.calls(key), ghosts.skips(key));
        }
        console2.log("total calls / skipped:", calls, skips);
        console2.log("missions / disputes:", escrow.missionCount(), escrow.disputeCount());
    }
}
