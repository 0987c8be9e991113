// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";

import {Errors} from "../../../contracts/libraries/Errors.sol";
import {AchievementNFTBase} from "./AchievementNFTBase.t.sol";

contract Soulbound_Test is AchievementNFTBase {
    uint256 internal soulboundId;
    uint256 internal collectibleId;

    function setUp() public override {
        super.setUp();
        soulboundId = _mint(performer, FIRST_MISSION);
        collectibleId = _mint(performer, COLLECTIBLE);
    }

    function test_RevertWhen_TransferSoulbound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.AchievementNFT_Soulbound.selector, soulboundId));
        vm.prank(performer);
        nft.transferFrom(performer, outsider, soulboundId);
    }

    function test_RevertWhen_SafeTransferSoulbound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.AchievementNFT_Soulbound.selector, soulboundId));
        vm.prank(performer);
        nft.safeTransferFrom(performer, outsider, soulboundId);
    }

    function test_RevertWhen_ApproveSoulbound() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.AchievementNFT_Soulbound.selector, soulboundId));
        vm.prank(performer);
        nft.approve(outsider, soulboundId);
    }

    /// @dev An operator approved for all still cannot move a soulbound token.
    function test_RevertWhen_OperatorTransfersSoulbound() external {
        vm.prank(performer);
        nft.setApprovalForAll(outsider, true);
        vm.expectRevert(abi.encodeWithSelector(Errors.AchievementNFT_Soulbound.selector, soulboundId));
        vm.prank(outsider);
        nft.transferFrom(performer, outsider, soulboundId);
    }

    function test_TransferCollectible() external {
        vm.prank(performer);
        nft.approve(collector, collectibleId);
        vm.prank(collector);
        nft.transferFrom(performer, collector, collectibleId);
        assertEq(nft.ownerOf(collectibleId), collector, "new owner");
        assertFalse(nft.locked(collectibleId), "unlocked");
    }

    function testFuzz_TransferCollectible(address to) external {
        vm.assume(to != address(0) && to.code.length == 0);
        vm.prank(performer);
        nft.safeTransferFrom(performer, to, collectibleId);
        assertEq(nft.ownerOf(collectibleId), to, "new owner");
    }

    function test_Locked() external view {
        assertTrue(nft.locked(soulboundId), "soulbound is locked");
        assertFalse(nft.locked(collectibleId), "collectible is not locked");
    }

    function test_RevertWhen_LockedOfNonexistentToken() external {
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, 99));
        nft.locked(99);
    }

    function test_SupportsInterface() external view {
        assertTrue(nft.supportsInterface(0xb45a3c0e), "ERC-5192");
        assertTrue(nft.supportsInterface(type(IERC721).interfaceId), "ERC-721");
        assertTrue(nft.supportsInterface(type(IERC721Metadata).interfaceId), "ERC-721 metadata");
        assertTrue(nft.supportsInterface(type(IERC165).interfaceId), "ERC-165");
        assertTrue(nft.supportsInterface(type(IAccessControl).interfaceId), "AccessControl");
        assertFalse(nft.supportsInterface(0xffffffff), "not 0xffffffff");
    }
}
