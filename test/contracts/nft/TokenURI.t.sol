// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";

import {AchievementNFTBase} from "./AchievementNFTBase.t.sol";

contract TokenURI_Test is AchievementNFTBase {
    string internal constant PREFIX = "data:application/json;base64,";

    function _uri(string memory json) internal pure returns (string memory) {
        return string.concat(PREFIX, Base64.encode(bytes(json)));
    }

    function test_TokenURI_Soulbound() external {
        vm.warp(1_750_000_000);
        uint256 tokenId = _mint(performer, FIRST_MISSION);
        string memory json = string.concat(
            '{"name":"First Mission","description":"Completed a first mission","image":"ipfs://first",',
            '"attributes":[{"trait_type":"type","value":"Milestone"},{"trait_type":"achievementId","value":"1"},',
            '{"trait_type":"missionId","value":"7"},{"display_type":"date","trait_type":"mintedAt","value":1750000000},',
            '{"trait_type":"soulbound","value":true}]}'
        );
        assertEq(nft.tokenURI(tokenId), _uri(json), "tokenURI");

        // The expected document is valid JSON with the fields the indexer reads.
        assertEq(vm.parseJsonString(json, ".name"), "First Mission", "name");
        assertEq(vm.parseJsonString(json, ".attributes[0].value"), "Milestone", "type");
        assertEq(vm.parseJsonUint(json, ".attributes[3].value"), 1_750_000_000, "mintedAt");
        assertTrue(vm.parseJsonBool(json, ".attributes[4].value"), "soulbound");
    }

    function test_TokenURI_Collectible() external {
        vm.warp(1_750_000_123);
        uint256 tokenId = _mint(collector, COLLECTIBLE);
        string memory json = string.concat(
            '{"name":"Golden Ticket","description":"A tradable ticket","image":"ipfs://ticket",',
            '"attributes":[{"trait_type":"type","value":"Collectible"},{"trait_type":"achievementId","value":"100"},',
            '{"trait_type":"missionId","value":"7"},{"display_type":"date","trait_type":"mintedAt","value":1750000123},',
            '{"trait_type":"soulbound","value":false}]}'
        );
        assertEq(nft.tokenURI(tokenId), _uri(json), "tokenURI");
    }

    /// @dev Quotes, backslashes and control characters in admin-given strings are escaped: still valid JSON.
    function test_TokenURI_EscapesStrings() external {
        vm.prank(admin);
        nft.defineAchievement(5, 'The "Best"', "line1\nline2\\end\x01", "ipfs://x", "", "Milestone", 0, true);
        vm.warp(1);
        uint256 tokenId = _mint(performer, 5);
        string memory json = string.concat(
            '{"name":"The \\"Best\\"","description":"line1\\u000aline2\\\\end\\u0001","image":"ipfs://x",',
            '"attributes":[{"trait_type":"type","value":"Milestone"},{"trait_type":"achievementId","value":"5"},',
            '{"trait_type":"missionId","value":"7"},{"display_type":"date","trait_type":"mintedAt","value":1},',
            '{"trait_type":"soulbound","value":true}]}'
        );
        assertEq(nft.tokenURI(tokenId), _uri(json), "tokenURI");
        assertEq(vm.parseJsonString(json, ".name"), 'The "Best"', "name round-trips");
        assertEq(vm.parseJsonString(json, ".description"), "line1\nline2\\end\x01", "description round-trips");
    }

    function test_RevertWhen_NonexistentToken() external {
        vm.expectRevert(abi.encodeWithSelector(IERC721Errors.ERC721NonexistentToken.selector, 1));
        nft.tokenURI(1);
    }
}
