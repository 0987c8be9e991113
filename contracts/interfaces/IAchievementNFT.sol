// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IAchievementNFT
/// @notice Achievement NFTs (ERC-721). Achievements are soulbound (ERC-5192, `locked` is true and
/// transfers revert); collectibles are tradable. Each achievement kind is defined on-chain once, and
/// an account can hold each kind at most once, so a repeated mint reverts instead of doubling.
interface IAchievementNFT {
    /// @notice ERC-5192: the token is locked (soulbound).
    event Locked(uint256 tokenId);

    /// @notice ERC-5192 (never emitted here: locked tokens stay locked).
    event Unlocked(uint256 tokenId);

    /// @notice A kind of achievement or collectible was defined.
    event AchievementDefined(
        uint256 indexed achievementId,
        string name,
        string description,
        string image,
        string requirements,
        string achievementType,
        uint32 xpReward,
        bool soulbound
    );

    /// @notice `to` received token `tokenId` of kind `achievementId`, earned for `missionId` (0 if none).
    event AchievementMinted(
        uint256 indexed tokenId, address indexed to, uint256 indexed achievementId, bool soulbound, uint256 missionId
    );

    /// @dev Requirements: caller holds DEFAULT_ADMIN_ROLE; `achievementId` not yet defined.
    function defineAchievement(
        uint256 achievementId,
        string calldata name,
        string calldata description,
        string calldata image,
        string calldata requirements,
        string calldata achievementType,
        uint32 xpReward,
        bool soulbound
    ) external;

    /// @dev Requirements: caller holds MINTER_ROLE; the kind is defined; `to` does not hold it yet.
    function mint(address to, uint256 achievementId, uint256 missionId) external returns (uint256 tokenId);

    /// @notice ERC-5192.
    function locked(uint256 tokenId) external view returns (bool);

    /// @notice The token `to` holds of kind `achievementId`, or 0.
    function tokenOfAchievement(address to, uint256 achievementId) external view returns (uint256);

    function MINTER_ROLE() external view returns (bytes32);

    /// @notice True once `achievementId` was defined.
    function isDefined(uint256 achievementId) external view returns (bool);

    /// @notice What token `tokenId` records: its kind, the mission it was earned for (0 if none) and
    /// when it was minted (unix seconds). Reverts for a token that does not exist.
    function tokenData(uint256 tokenId)
        external
        view
        returns (uint256 achievementId, uint256 missionId, uint256 mintedAt);

    /// @notice The number of tokens minted so far (token ids run from 1 to this).
    function totalMinted() external view returns (uint256);
}
