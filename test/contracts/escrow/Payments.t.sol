// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice withdraw, withdrawGuildFees and withdrawFees (credits are produced in adversarial/Adversarial.t.sol).
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
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        assertEq(usdc.balanceOf(address(escrow)), escrow.resolverPool() + protocolFees + labsFees, "escrow holds only the accruals");
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
        r1 = bound(r1, 1, MAX_REWARD);
        r2 = bound(r2, 1, MAX_REWARD);
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

    /*//////////////////////////////////////////////////////////////
                 PROTOCOL AND LABS FEES (issue 40)
    //////////////////////////////////////////////////////////////*/

    function test_WithdrawFees_RevertWhen_NothingToWithdraw() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, users.protocolTreasury));
        escrow.withdrawFees();
    }

    function test_WhenFeesWithdrawn_PaysBothTreasuries() external {
        uint256 missionId = createSubmitted();
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(missionId);
        assertEq(usdc.balanceOf(users.protocolTreasury), 0, "not pushed at approval");
        (uint256 escrowBefore, uint256 eveBefore) = (usdc.balanceOf(address(escrow)), usdc.balanceOf(users.eve));
        vm.expectEmit(address(escrow));
        emit IMissionEscrow.FeesWithdrawn(users.protocolTreasury, s.protocolAmount, users.labsTreasury, s.labsAmount);
        vm.prank(users.eve); // anyone may call; the funds go to the treasuries only
        (uint256 protocolAmount, uint256 labsAmount) = escrow.withdrawFees();
        assertEq(protocolAmount, 2e6, "protocol: 2.5% less the pool's fifth");
        assertEq(labsAmount, 1e6, "labs: 1%");
        assertEq(usdc.balanceOf(users.protocolTreasury), 2e6, "protocol treasury paid");
        assertEq(usdc.balanceOf(users.labsTreasury), 1e6, "labs treasury paid");
        assertEq(usdc.balanceOf(users.eve), eveBefore, "caller got nothing");
        assertEq(escrowBefore - usdc.balanceOf(address(escrow)), 3e6, "escrow paid exactly the fees");
        (uint256 p, uint256 l) = escrow.accruedFees();
        assertEq(p + l, 0, "fees cleared");
        assertEq(escrow.resolverPool(), s.resolverAmount, "the pool is not touched");
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, users.protocolTreasury));
        escrow.withdrawFees();
    }

    function test_WhenTreasuriesChanged_PaysCurrentTreasuries() external {
        uint256 missionId = createSubmitted();
        vm.prank(users.poster);
        escrow.approveMission(missionId);
        (address p, address l) = (makeAddr("NewProtocol"), makeAddr("NewLabs"));
        vm.prank(users.admin);
        escrow.setTreasuries(p, l);
        escrow.withdrawFees();
        assertEq(usdc.balanceOf(p), 2e6, "current protocol treasury paid");
        assertEq(usdc.balanceOf(l), 1e6, "current labs treasury paid");
        assertEq(usdc.balanceOf(users.protocolTreasury) + usdc.balanceOf(users.labsTreasury), 0, "old ones not");
    }

    /// @dev Approvals, partial releases, settlements and a dispute all accrue into the same two sums.
    function testFuzz_FeesAccumulate(uint256 r1, uint256 r2) external {
        r1 = bound(r1, 1, MAX_REWARD);
        r2 = bound(r2, 1, MAX_REWARD);
        uint256 m1 = createSubmitted(r1, guildId);
        uint256 m2 = createSubmitted(r2, 0);
        vm.startPrank(users.poster);
        Missions.Settlement memory s1 = escrow.approveMission(m1);
        Missions.Settlement memory s2 = escrow.approveMission(m2);
        vm.stopPrank();
        (uint256 p, uint256 l) = escrow.accruedFees();
        assertEq(p, s1.protocolAmount + s2.protocolAmount, "protocol accrued");
        assertEq(l, s1.labsAmount + s2.labsAmount, "labs accrued");
        if (p + l == 0) return;
        (uint256 pw, uint256 lw) = escrow.withdrawFees();
        assertEq(pw, p, "protocol withdrawn");
        assertEq(lw, l, "labs withdrawn");
        assertEq(usdc.balanceOf(users.protocolTreasury), p, "protocol treasury");
        assertEq(usdc.balanceOf(users.labsTreasury), l, "labs treasury");
    }
}
