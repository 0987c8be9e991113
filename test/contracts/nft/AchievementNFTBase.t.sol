// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "forge-std/Test.sol";

import {AchievementNFT} from "../../../contracts/AchievementNFT.sol";

/// @notice Actors and two kinds for the AchievementNFT tests: a soulbound achievement and a tradable
/// collectible.
abstract contract AchievementNFTBase is Test {
    uint256 internal constant FIRST_MISSION = 1;
    uint256 internal constant COLLECTIBLE = 100;
    uint256 internal constant MISSION_ID = 7;

    address internal admin = makeAddr("ProtocolAdmin");
    address internal minter = makeAddr("Minter");
    address internal performer = makeAddr("Performer");
    address internal collector = makeAddr("Collector");
    address internal outsider = makeAddr("Outsider");

    AchievementNFT internal nft;

    function setUp() public virtual {
        nft = new AchievementNFT(admin);
        vm.startPrank(admin);
        nft.grantRole(nft.MINTER_ROLE(), minter);
        nft.defineAchievement(
            FIRST_MISSION,
            "First Mission",
            "Completed a first mission",
            "ipfs://first",
            "Complete 1 mission",
            "Milestone",
            50,
            true
        );
        nft.defineAchievement(
            COLLECTIBLE,
            "Golden Ticket",
            "A tradable ticket",
            "ipfs://ticket",
            "Be lucky",
            "Collectible",
            0,
            false
        );
        vm.stopPrank();
    }

    function _mint(address to, uint256 achievementId) internal returns (uint256) {
        vm.prank(minter);
        return nft.mint(to, achievementId, MISSION_ID);
    }
}
