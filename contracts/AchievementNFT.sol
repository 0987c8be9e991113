// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Strings} from "@openzeppelin/contracts/utils/Strings.sol";

import {IAchievementNFT} from "./interfaces/IAchievementNFT.sol";
import {Errors} from "./libraries/Errors.sol";
import {JsonLib} from "./libraries/JsonLib.sol";

/// @title AchievementNFT
/// @notice See the documentation in {IAchievementNFT}.
/// @dev Soulbound tokens are blocked in `_update` (any move after the mint, burns included: there is
/// no burn) and in `_approve` (an approval could never be used). `tokenURI` is on-chain JSON.
contract AchievementNFT is IAchievementNFT, ERC721, AccessControl {
    using Strings for uint256;

    /// @dev A kind of achievement or collectible, defined once by the admin.
    struct Achievement {
        string name;
        string description;
        string image;
        string requirements;
        string achievementType;
        uint32 xpReward;
        bool soulbound;
        bool defined;
    }

    /// @dev What a token records. One slot after `achievementId`.
    struct Token {
        uint256 achievementId;
        uint64 missionId;
        uint64 mintedAt;
    }

    /// @inheritdoc IAchievementNFT
    bytes32 public constant override MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @dev ERC-5192's interface id.
    bytes4 private constant ERC5192_INTERFACE_ID = 0xb45a3c0e;

    uint256 private _lastTokenId;
    mapping(uint256 achievementId => Achievement) private _achievements;
    mapping(uint256 tokenId => Token) private _tokens;
    mapping(address account => mapping(uint256 achievementId => uint256 tokenId)) private _tokenOfAchievement;

    constructor(address admin) ERC721("Mission Achievements", "MACH") {
        if (admin == address(0)) revert Errors.ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /*//////////////////////////////////////////////////////////////
                              ACHIEVEMENTS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IAchievementNFT
    /// @dev `public` with memory strings: five calldata strings (two stack slots each) are too deep for the
    /// legacy code generator's ABI decoder.
    function defineAchievement(
        uint256 achievementId,
        string memory name,
        string memory description,
        string memory image,
        string memory requirements,
        string memory achievementType,
        uint32 xpReward,
        bool soulbound
    ) public override onlyRole(DEFAULT_ADMIN_ROLE) {
        if (_achievements[achievementId].defined) {
            revert Errors.AchievementNFT_AlreadyDefined(achievementId);
        }
        _achievements[achievementId] = Achievement({
            name: name,
            description: description,
            image: image,
            requirements: requirements,
            achievementType: achievementType,
            xpReward: xpReward,
            soulbound: soulbound,
            defined: true
        });
        emit AchievementDefined(
            achievementId, name, description, image, requirements, achievementType, xpReward, soulbound
        );
    }

    /// @inheritdoc IAchievementNFT
    /// @dev Uses `_mint`, not `_safeMint`: the mint cannot be blocked by a recipient contract, and the
    /// relayer must not run foreign code.
    function mint(address to, uint256 achievementId, uint256 missionId)
        external
        override
        onlyRole(MINTER_ROLE)
        returns (uint256 tokenId)
    {
        Achievement storage achievement = _achievements[achievementId];
        if (!achievement.defined) revert Errors.AchievementNFT_UnknownAchievement(achievementId);
        uint256 held = _tokenOfAchievement[to][achievementId];
        if (held != 0) revert Errors.AchievementNFT_AlreadyMinted(to, achievementId, held);

        tokenId = ++_lastTokenId;
        _tokens[tokenId] = Token({
            achievementId: achievementId,
            missionId: SafeCast.toUint64(missionId),
            mintedAt: uint64(block.timestamp)
        });
        _tokenOfAchievement[to][achievementId] = tokenId;

        bool soulbound = achievement.soulbound;
        _mint(to, tokenId);
        if (soulbound) emit Locked(tokenId);
        emit AchievementMinted(tokenId, to, achievementId, soulbound, missionId);
    }

    /*//////////////////////////////////////////////////////////////
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IAchievementNFT
    function locked(uint256 tokenId) external view override returns (bool) {
        _requireOwned(tokenId);
        return _achievements[_tokens[tokenId].achievementId].soulbound;
    }

    /// @inheritdoc IAchievementNFT
    function tokenOfAchievement(address to, uint256 achievementId) external view override returns (uint256) {
        return _tokenOfAchievement[to][achievementId];
    }

    /// @inheritdoc IAchievementNFT
    function isDefined(uint256 achievementId) external view override returns (bool) {
        return _achievements[achievementId].defined;
    }

    /// @notice The definition of `achievementId` (all fields zero when undefined).
    function getAchievement(uint256 achievementId) external view returns (Achievement memory) {
        return _achievements[achievementId];
    }

    /// @inheritdoc IAchievementNFT
    function tokenData(uint256 tokenId)
        external
        view
        override
        returns (uint256 achievementId, uint256 missionId, uint256 mintedAt)
    {
        _requireOwned(tokenId);
        Token memory token = _tokens[tokenId];
        return (token.achievementId, token.missionId, token.mintedAt);
    }

    /// @inheritdoc IAchievementNFT
    function totalMinted() external view override returns (uint256) {
        return _lastTokenId;
    }

    /// @notice On-chain metadata: `data:application/json;base64,` of
    /// `{name, description, image, attributes: [type, achievementId, missionId, mintedAt, soulbound]}`.
    /// Ids are strings (they may exceed 2^53), `mintedAt` is a unix-seconds number (display type date),
    /// `soulbound` a boolean.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        Token memory token = _tokens[tokenId];
        Achievement storage achievement = _achievements[token.achievementId];
        string memory json = string.concat(
            '{"name":"',
            JsonLib.escape(achievement.name),
            '","description":"',
            JsonLib.escape(achievement.description),
            '","image":"',
            JsonLib.escape(achievement.image),
            '","attributes":',
            _attributes(token, achievement),
            "}"
        );
        return string.concat("data:application/json;base64,", Base64.encode(bytes(json)));
    }

    /// @dev ERC-721, ERC-165, AccessControl and ERC-5192.
    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721, AccessControl)
        returns (bool)
    {
        return interfaceId == ERC5192_INTERFACE_ID || super.supportsInterface(interfaceId);
    }

    /*//////////////////////////////////////////////////////////////
                               INTERNAL
    //////////////////////////////////////////////////////////////*/

    /// @dev Soulbound tokens can be minted and never move afterwards.
    function _update(address to, uint256 tokenId, address auth) internal override returns (address) {
        address from = _ownerOf(tokenId);
        if (from != address(0) && _achievements[_tokens[tokenId].achievementId].soulbound) {
            revert Errors.AchievementNFT_Soulbound(tokenId);
        }
        return super._update(to, tokenId, auth);
    }

    /// @dev Approving a soulbound token would grant nothing; refuse it rather than mislead. Clearing
    /// (to == 0) stays allowed.
    function _approve(address to, uint256 tokenId, address auth, bool emitEvent) internal override {
        if (to != address(0) && _achievements[_tokens[tokenId].achievementId].soulbound) {
            revert Errors.AchievementNFT_Soulbound(tokenId);
        }
        super._approve(to, tokenId, auth, emitEvent);
    }

    function _attributes(Token memory token, Achievement storage achievement)
        private
        view
        returns (string memory)
    {
        return string.concat(
            '[{"trait_type":"type","value":"',
            JsonLib.escape(achievement.achievementType),
            '"},{"trait_type":"achievementId","value":"',
            token.achievementId.toString(),
            '"},{"trait_type":"missionId","value":"',
            uint256(token.missionId).toString(),
            '"},{"display_type":"date","trait_type":"mintedAt","value":',
            uint256(token.mintedAt).toString(),
            '},{"trait_type":"soulbound","value":',
            achievement.soulbound ? "true" : "false",
            "}]"
        );
    }
}
