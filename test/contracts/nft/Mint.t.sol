// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

import {IAchievementNFT} from "../../../contracts/interfaces/IAchievementNFT.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {AchievementNFTBase} from "./AchievementNFTBase.t.sol";

contract Mint_Test is AchievementNFTBase {
    function test_Mint_Soulbound() external {
        vm.warp(1_750_000_000);
        vm.expectEmit(address(nft));
        emit IERC721.Transfer(address(0), performer, 1);
        vm.expectEmit(address(nft));
        emit IAchievementNFT.Locked(1);
        vm.expectEmit(address(nft));
        emit IAchievementNFT.AchievementMinted(1, performer, FIRST_MISSION, true, MISSION_ID);
        uint256 tokenId = _mint(performer, FIRST_MISSION);

        assertEq(tokenId, 1, "token ids start at 1");
        assertEq(nft.ownerOf(tokenId), performer, "owner");
        assertTrue(nft.locked(tokenId), "locked");
        assertEq(nft.tokenOfAchievement(performer, FIRST_MISSION), tokenId, "tokenOfAchievement");
        assertEq(nft.totalMinted(), 1, "totalMinted");
        (uint256 achievementId, uint256 missionId, uint256 mintedAt) = nft.tokenData(tokenId);
        assertEq(achievementId, FIRST_MISSION, "achievementId");
        assertEq(missionId, MISSION_ID, "missionId");
        assertEq(mintedAt, 1_750_000_000, "mintedAt");
    }

    function test_Mint_Collectible_NoLockedEvent() external {
        vm.recordLogs();
        uint256 tokenId = _mint(collector, COLLECTIBLE);
        assertEq(vm.getRecordedLogs().length, 2, "Transfer and AchievementMinted only");
        assertFalse(nft.locked(tokenId), "not locked");
    }

    function test_Mint_SameKindToAnotherAccount() external {
        uint256 first = _mint(performer, FIRST_MISSION);
        uint256 second = _mint(collector, FIRST_MISSION);
        assertEq(second, first + 1, "sequential ids");
        assertEq(nft.tokenOfAchievement(collector, FIRST_MISSION), second, "second holder");
    }

    function test_Mint_WithoutMission() external {
        vm.prank(minter);
        uint256 tokenId = nft.mint(performer, FIRST_MISSION, 0);
        (, uint256 missionId,) = nft.tokenData(tokenId);
        assertEq(missionId, 0, "no mission");
    }

    function test_RevertWhen_CallerNotMinter() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, admin, nft.MINTER_ROLE()
            )
        );
        vm.prank(admin);
        nft.mint(performer, FIRST_MISSION, MISSION_ID);
    }

    function testFuzz_RevertWhen_UnknownAchievement(uint256 achievementId) external {
        vm.assume(achievementId != FIRST_MISSION && achievementId != COLLECTIBLE);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.AchievementNFT_UnknownAchievement.selector, achievementId)
        );
        _mint(performer, achievementId);
    }

    function test_RevertWhen_AlreadyMinted() external {
        uint256 tokenId = _mint(performer, FIRST_MISSION);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.AchievementNFT_AlreadyMinted.selector, performer, FIRST_MISSION, tokenId
            )
        );
        _mint(performer, FIRST_MISSION);
    }

    /// @dev A collectible that moved away still counts: the original holder cannot mint it again.
    function test_RevertWhen_AlreadyMinted_AfterCollectibleTransferred() external {
        uint256 tokenId = _mint(collector, COLLECTIBLE);
        vm.prank(collector);
        nft.transferFrom(collector, outsider, tokenId);
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.AchievementNFT_AlreadyMinted.selector, collector, COLLECTIBLE, tokenId
            )
        );
        _mint(collector, COLLECTIBLE);
    }

    function test_RevertWhen_ToZero() external {
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721InvalidReceiver.selector, address(0)));
        _mint(address(0), FIRST_MISSION);
    }

    function test_RevertWhen_MissionIdTooLarge() external {
        uint256 missionId = uint256(type(uint64).max) + 1;
        vm.expectRevert(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 64, missionId)
        );
        vm.prank(minter);
        nft.mint(performer, FIRST_MISSION, missionId);
    }

    function test_RevertWhen_TokenDataOfNonexistentToken() external {
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, 1));
        nft.tokenData(1);
    }
}
