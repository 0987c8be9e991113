// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IAchievementNFT
/// @notice Achievement NFTs (ERC-721). Achievements are soulbound (ERC-5192, `locked` is true and
/// transfers revert); collectibles are tradable. Each achievement kind is defined on-chain once, and
/// an account can hold each kind at most once, so a repeated mint reverts instead of doubling.
interface IAchievementNFT {
    /// @notice ERC-5192: the token is locked (soulbound).
    /// @param tokenId The token.
    event Locked(uint256 tokenId);

    /// @notice ERC-5192 (never emitted here: locked tokens stay locked).
    /// @param tokenId The token.
    event Unlocked(uint256 tokenId);

    /// @notice A kind of achievement or collectible was defined.
    /// @param achievementId The kind's id, chosen by the admin.
    /// @param name The display name.
    /// @param description The display description.
    /// @param image The image URI.
    /// @param requirements What earns it, in words.
    /// @param achievementType The category shown in the token's metadata.
    /// @param xpReward The XP shown with the kind (display only: minting awards no XP).
    /// @param soulbound True for an achievement (non-transferable), false for a collectible.
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

    /// @notice `to` received token `tokenId` of kind `achievementId`.
    /// @param tokenId The new token.
    /// @param to The holder.
    /// @param achievementId The kind.
    /// @param soulbound True when the token is locked.
    /// @param missionId The mission it was earned for, or 0.
    event AchievementMinted(
        uint256 indexed tokenId, address indexed to, uint256 indexed achievementId, bool soulbound, uint256 missionId
    );

    /// @notice Defines a kind of achievement or collectible, once.
    /// @dev Emits `AchievementDefined`. Requirements:
    /// - the caller holds DEFAULT_ADMIN_ROLE.
    /// - `achievementId` is not defined yet.
    /// @param achievementId The kind's id.
    /// @param name The display name.
    /// @param description The display description.
    /// @param image The image URI.
    /// @param requirements What earns it, in words.
    /// @param achievementType The category shown in the token's metadata.
    /// @param xpReward The XP shown with the kind (display only: minting awards no XP).
    /// @param soulbound True for an achievement (non-transferable), false for a collectible.
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

    /// @notice Mints a token of kind `achievementId` to `to`.
    /// @dev Emits `Transfer`, then `Locked` for a soulbound kind, then `AchievementMinted`. Requirements:
    /// - the caller holds MINTER_ROLE.
    /// - the kind is defined.
    /// - `to` does not hold the kind yet.
    /// - `missionId` fits in 64 bits.
    /// @param to The holder.
    /// @param achievementId The kind.
    /// @param missionId The mission it was earned for, or 0.
    /// @return tokenId The new token's id.
    function mint(address to, uint256 achievementId, uint256 missionId) external returns (uint256 tokenId);

    /// @notice ERC-5192: whether the token is soulbound.
    /// @dev Requirements: the token exists.
    /// @param tokenId The token.
    /// @return True when the token can never move.
    function locked(uint256 tokenId) external view returns (bool);

    /// @notice The token `to` holds of kind `achievementId`.
    /// @param to The holder.
    /// @param achievementId The kind.
    /// @return The token's id, or 0.
    function tokenOfAchievement(address to, uint256 achievementId) external view returns (uint256);

    /// @notice The role that mints.
    /// @return The role's id.
    function MINTER_ROLE() external view returns (bytes32);

    /// @notice True once `achievementId` was defined.
    /// @param achievementId The kind.
    /// @return True when defined.
    function isDefined(uint256 achievementId) external view returns (bool);

    /// @notice What token `tokenId` records.
    /// @dev Requirements: the token exists.
    /// @param tokenId The token.
    /// @return achievementId The token's kind.
    /// @return missionId The mission it was earned for, or 0.
    /// @return mintedAt When it was minted (unix seconds).
    function tokenData(uint256 tokenId)
        external
        view
        returns (uint256 achievementId, uint256 missionId, uint256 mintedAt);

    /// @notice The number of tokens minted so far.
    /// @return The count; token ids run from 1 to it.
    function totalMinted() external view returns (uint256);
}
