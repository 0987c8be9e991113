// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";

/// @notice withdraw and withdrawGuildFees (credits are produced in adversarial/Blacklist.t.sol).
contract Payments_Test is Base {
    function test_Withdraw_RevertWhen_NothingToWithdraw() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, users.poster));
        escrow.withdraw(users.poster);
    }

    function test_WithdrawGuildFees_RevertWhen_NothingToWithdraw() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, users.guildTreasury));
        escrow.withdrawGuildFees(guildId);
    }

    function test_WithdrawGuildFees_RevertWhen_NoGuild() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, address(0)));
        escrow.withdrawGuildFees(0);
    }

    function test_WhenGuildFeesWithdrawn_PaysTreasury() external {
        uint256 missionId = createSubmitted(REWARD, guildId);
        vm.prank(users.poster);
        escrow.approveMission(missionId);
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.GuildFeesWithdrawn(guildId, users.guildTreasury, 5e6);
        vm.prank(users.eve);
        uint256 amount = escrow.withdrawGuildFees(guildId);
        assertEq(amount, 5e6, "amount");
        assertEq(usdc.balanceOf(users.guildTreasury), 5e6, "treasury paid");
        assertEq(escrow.guildFees(guildId), 0, "fees cleared");
        assertEq(usdc.balanceOf(address(escrow)), escrow.resolverPool(), "escrow holds only the resolver pool");
    }

    function test_WhenGuildTreasuryChanged_PaysCurrentTreasury() external {
        uint256 missionId = createSubmitted(REWARD, guildId);
        vm.prank(users.poster);
        escrow.approveMission(missionId);
        address newTreasury = makeAddr("NewGuildTreasury");
        vm.prank(users.guildAdmin);
        guildRegistry.updateGuildSettings(guildId, users.guildAdmin, GUILD_FEE_BPS, newTreasury);
        escrow.withdrawGuildFees(guildId);
        assertEq(usdc.balanceOf(newTreasury), 5e6, "current treasury paid");
    }

    function testFuzz_GuildFeesAccumulate(uint256 r1, uint256 r2) external {
        r1 = bound(r1, 1, 1e18);
        r2 = bound(r2, 1, 1e18);
        uint256 m1 = createSubmitted(r1, guildId);
        uint256 m2 = createSubmitted(r2, guildId);
        vm.startPrank(users.poster);
        escrow.approveMission(m1);
        escrow.approveMission(m2);
        vm.stopPrank();
        uint256 expected = r1 * GUILD_FEE_BPS / 10_000 + r2 * GUILD_FEE_BPS / 10_000;
        assertEq(escrow.guildFees(guildId), expected, "accrued");
        if (expected > 0) assertEq(escrow.withdrawGuildFees(guildId), expected, "withdrawn");
    }
}
