// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {AchievementNFT} from "../../../contracts/AchievementNFT.sol";
import {IAchievementNFT} from "../../../contracts/interfaces/IAchievementNFT.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {AchievementNFTBase} from "./AchievementNFTBase.t.sol";

contract DefineAchievement_Test is AchievementNFTBase {
    function test_Constructor() external view {
        assertEq(nft.name(), "Mission Achievements", "name");
        assertEq(nft.symbol(), "MACH", "symbol");
        assertTrue(nft.hasRole(nft.DEFAULT_ADMIN_ROLE(), admin), "admin");
        assertEq(nft.MINTER_ROLE(), keccak256("MINTER_ROLE"), "MINTER_ROLE");
        assertEq(nft.totalMinted(), 0, "nothing minted");
    }

    function test_RevertWhen_ConstructorAdminZero() external {
        vm.expectRevert(Errors.ZeroAddress.selector);
        new AchievementNFT(address(0));
    }

    function testFuzz_DefineAchievement(uint256 achievementId, uint32 xpReward, bool soulbound) external {
        vm.assume(achievementId != FIRST_MISSION && achievementId != COLLECTIBLE);
        vm.expectEmit(address(nft));
        emit IAchievementNFT.AchievementDefined(
            achievementId,
            "Streak",
            "Seven days",
            "ipfs://streak",
            "7-day streak",
            "Streak",
            xpReward,
            soulbound
        );
        vm.prank(admin);
        nft.defineAchievement(
            achievementId,
            "Streak",
            "Seven days",
            "ipfs://streak",
            "7-day streak",
            "Streak",
            xpReward,
            soulbound
        );

        assertTrue(nft.isDefined(achievementId), "defined");
        AchievementNFT.Achievement memory a = nft.getAchievement(achievementId);
        assertEq(a.name, "Streak", "name");
        assertEq(a.description, "Seven days", "description");
        assertEq(a.image, "ipfs://streak", "image");
        assertEq(a.requirements, "7-day streak", "requirements");
        assertEq(a.achievementType, "Streak", "type");
        assertEq(a.xpReward, xpReward, "xpReward");
        assertEq(a.soulbound, soulbound, "soulbound");
    }

    function test_IsDefined_FalseForUnknown() external view {
        assertFalse(nft.isDefined(12345), "unknown");
    }

    function test_RevertWhen_CallerNotAdmin() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, minter, nft.DEFAULT_ADMIN_ROLE()
            )
        );
        vm.prank(minter);
        nft.defineAchievement(5, "", "", "", "", "", 0, true);
    }

    function test_RevertWhen_AlreadyDefined() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.AchievementNFT_AlreadyDefined.selector, FIRST_MISSION));
        vm.prank(admin);
        nft.defineAchievement(FIRST_MISSION, "Again", "", "", "", "", 0, false);
    }
}
