// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IMissionEscrowState} from "contracts/interfaces/IMissionEscrowState.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";
import {IGuildRegistry} from "contracts/interfaces/IGuildRegistry.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

contract EighteenDecimals is ERC20("Eighteen", "E18") {}

/// @notice Constructor, roles, windows, treasuries and views.
contract Admin_Test is Base {
    function test_Constructor() external view {
        assertEq(escrow.token(), address(usdc), "token");
        assertEq(address(escrow.operators()), address(operators), "operators");
        assertEq(address(escrow.guilds()), address(guildRegistry), "guilds");
        assertEq(escrow.protocolTreasury(), users.protocolTreasury, "protocol treasury");
        assertEq(escrow.labsTreasury(), users.labsTreasury, "labs treasury");
        assertTrue(escrow.hasRole(escrow.DEFAULT_ADMIN_ROLE(), users.admin), "admin");
        assertEq(escrow.RESOLVER_ROLE(), keccak256("RESOLVER_ROLE"), "resolver role");
        assertEq(escrow.APPEALS_ROLE(), keccak256("APPEALS_ROLE"), "appeals role");
        assertEq(escrow.PROTOCOL_FEE_BPS(), 250, "protocol bps");
        assertEq(escrow.LABS_FEE_BPS(), 100, "labs bps");
        assertEq(escrow.RESOLVER_POOL_BPS(), 2000, "pool bps of the protocol share");
        assertEq(escrow.RESOLVER_DECISION_FEE(), 5e6, "decision fee");
        assertEq(escrow.resolverPool(), 0, "empty pool");
        assertEq(escrow.RESERVE_BPS(), 500, "reserve bps");
        assertEq(escrow.MIN_RESERVE(), 1e6, "min reserve");
        assertEq(escrow.MIN_REWARD(), 1, "min reward");
        assertEq(escrow.MIN_DURATION(), 60, "min duration");
        assertEq(escrow.MAX_DURATION(), 365 days, "max duration");
        assertEq(escrow.missionCount(), 0, "no missions");
        assertEq(escrow.disputeCount(), 0, "no disputes");
        assertEq(window(Missions.Window.Review), 7 days, "review");
        assertEq(window(Missions.Window.Resolution), 3 days, "resolution");
        assertEq(window(Missions.Window.Appeal), 3 days, "appeal");
        assertEq(window(Missions.Window.AppealDecision), 7 days, "appeal decision");
        assertEq(window(Missions.Window.DisputeTimeout), 30 days, "dispute timeout");
    }

    function test_Constructor_RevertWhen_TokenNotSixDecimals() external {
        EighteenDecimals bad = new EighteenDecimals();
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidToken.selector, address(bad), 18));
        deployEscrow(address(bad));
    }

    function test_Constructor_RevertWhen_ZeroAddress() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        new MissionEscrow(IERC20(address(usdc)), IOperatorRegistry(address(0)), guildRegistry, users.admin, users.protocolTreasury, users.labsTreasury);
        vm.expectRevert(Errors.ZeroAddress.selector);
        new MissionEscrow(IERC20(address(usdc)), operators, IGuildRegistry(address(0)), users.admin, users.protocolTreasury, users.labsTreasury);
        vm.expectRevert(Errors.ZeroAddress.selector);
        new MissionEscrow(IERC20(address(usdc)), operators, guildRegistry, address(0), users.protocolTreasury, users.labsTreasury);
        vm.expectRevert(Errors.ZeroAddress.selector);
        new MissionEscrow(IERC20(address(usdc)), operators, guildRegistry, users.admin, address(0), users.labsTreasury);
    }

    function test_SetWindow_RevertWhen_CallerNotAdmin() external {
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, users.eve, bytes32(0))
        );
        escrow.setWindow(Missions.Window.Review, 5 days);
    }

    function test_SetWindow_RevertWhen_OutOfBounds() external {
        uint256[5] memory minima = [uint256(3 days), 1 days, 1 days, 1 days, 7 days];
        uint256[5] memory maxima = [uint256(14 days), 14 days, 14 days, 30 days, 90 days];
        vm.startPrank(users.admin);
        for (uint8 i; i < 5; ++i) {
            Missions.Window w = Missions.Window(i);
            vm.expectRevert(
                abi.encodeWithSelector(Errors.MissionEscrow_InvalidWindow.selector, minima[i] - 1, minima[i], maxima[i])
            );
            escrow.setWindow(w, minima[i] - 1);
            vm.expectRevert(
                abi.encodeWithSelector(Errors.MissionEscrow_InvalidWindow.selector, maxima[i] + 1, minima[i], maxima[i])
            );
            escrow.setWindow(w, maxima[i] + 1);
            escrow.setWindow(w, minima[i]);
            assertEq(window(w), minima[i], "minimum accepted");
            vm.expectEmit(address(escrow));
            emit IMissionEscrow.WindowSet(i, maxima[i]);
            escrow.setWindow(w, maxima[i]);
            assertEq(window(w), maxima[i], "maximum accepted");
        }
        vm.stopPrank();
    }

    function testFuzz_SetWindow(uint8 w, uint256 value) external {
        Missions.Window win = Missions.Window(bound(w, 0, 4));
        (uint256 minimum, uint256 maximum) = escrow.windowBounds(win);
        value = bound(value, minimum, maximum);
        vm.prank(users.admin);
        escrow.setWindow(win, value);
        assertEq(window(win), value, "window");
    }

    function test_WindowChange_DoesNotMoveInFlightDispute() external {
        uint256 disputeId = createDispute();
        uint256 timeoutAt = disputeOf(disputeId).timeoutAt;
        vm.prank(users.admin);
        escrow.setWindow(Missions.Window.DisputeTimeout, 7 days);
        assertEq(disputeOf(disputeId).timeoutAt, timeoutAt, "in-flight timeout unchanged");
        vm.warp(START_TIME + 7 days + 1);
        vm.expectRevert(); // still not finalizable
        escrow.finalizeDispute(disputeId);
    }

    function test_SetTreasuries() external {
        address p = makeAddr("P2");
        address l = makeAddr("L2");
        vm.expectEmit(address(escrow));
        emit IMissionEscrowState.TreasurySet(p, l);
        vm.prank(users.admin);
        escrow.setTreasuries(p, l);
        assertEq(escrow.protocolTreasury(), p, "protocol");
        assertEq(escrow.labsTreasury(), l, "labs");
    }

    function test_SetTreasuries_RevertWhen_Zero() external {
        vm.startPrank(users.admin);
        vm.expectRevert(Errors.ZeroAddress.selector);
        escrow.setTreasuries(address(0), users.labsTreasury);
        vm.expectRevert(Errors.ZeroAddress.selector);
        escrow.setTreasuries(users.protocolTreasury, address(0));
        vm.stopPrank();
    }

    function test_SetTreasuries_RevertWhen_CallerNotAdmin() external {
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, users.eve, bytes32(0))
        );
        escrow.setTreasuries(users.eve, users.eve);
    }

    function test_Roles_AdminGrantsAndRevokes() external {
        bytes32 role = escrow.RESOLVER_ROLE();
        vm.startPrank(users.admin);
        escrow.revokeRole(role, users.resolver);
        assertFalse(escrow.hasRole(role, users.resolver), "revoked");
        escrow.grantRole(role, users.eve);
        vm.stopPrank();
        assertTrue(escrow.hasRole(role, users.eve), "granted");
    }

    function test_Views_Unknown() external view {
        assertEq(missionOf(42).poster, address(0), "unknown mission is zero");
        assertEq(disputeOf(42).missionId, 0, "unknown dispute is zero");
        assertEq(escrow.disputeOf(42), 0, "no dispute");
        assertEq(escrow.credits(users.poster), 0, "no credits");
        assertEq(escrow.remainingOf(42), 0, "no remainder");
        (bool a, uint256 x, bool b, uint256 y) = escrow.offersOf(42);
        assertTrue(!a && !b && x == 0 && y == 0, "no offers");
    }

    function testFuzz_PreviewSettlement(uint256 reward, uint16 bps) external view {
        reward = bound(reward, 1, type(uint64).max);
        bps = uint16(bound(bps, 0, 1000));
        Missions.Settlement memory s = escrow.previewSettlement(reward, bps);
        assertEq(s.performerAmount + s.protocolAmount + s.labsAmount + s.guildAmount + s.resolverAmount, reward, "sum");
        assertGe(s.performerAmount + 3, reward - reward * 1350 / 10_000, "performer gets at least 86.5%");
    }
}
