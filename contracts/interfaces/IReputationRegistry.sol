// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IReputationRegistry
/// @notice The off-chain inputs of XP, put on-chain so that the indexer derives XP purely from chain
/// events: builder scores (set by the builder-score provider role) and referrals (recorded by the
/// relayer role).
interface IReputationRegistry {
    /// @notice The provider set `account`'s builder score (0..100).
    /// @param account The account scored.
    /// @param score The score, 0..100; the latest replaces an earlier one.
    /// @param provider The PROVIDER_ROLE holder who set it.
    event BuilderScoreSet(address indexed account, uint8 score, address indexed provider);

    /// @notice `referee` was referred by `referrer` (once per referee).
    /// @param referrer The account that referred.
    /// @param referee The account referred.
    event ReferralRecorded(address indexed referrer, address indexed referee);

    /// @notice Sets the builder score of `account`.
    /// @dev Emits `BuilderScoreSet`. Requirements:
    /// - the caller holds PROVIDER_ROLE.
    /// - `account` is not zero.
    /// - `score <= 100`.
    /// @param account The account scored.
    /// @param score The score, 0..100.
    function setBuilderScore(address account, uint8 score) external;

    /// @notice Records that `referrer` referred `referee`.
    /// @dev Emits `ReferralRecorded`. Requirements:
    /// - the caller holds REFERRER_ROLE.
    /// - neither address is zero, and `referrer != referee`.
    /// - `referee` has no referrer yet.
    /// @param referrer The account that referred.
    /// @param referee The account referred.
    function recordReferral(address referrer, address referee) external;

    /// @notice The role that sets builder scores.
    /// @return The role's id.
    function PROVIDER_ROLE() external view returns (bytes32);

    /// @notice The role that records referrals.
    /// @return The role's id.
    function REFERRER_ROLE() external view returns (bytes32);

    /// @notice The builder score of `account`.
    /// @param account The account.
    /// @return score The score (0 when never set).
    /// @return isSet True once a score was set, even a score of 0.
    function builderScoreOf(address account) external view returns (uint8 score, bool isSet);

    /// @notice The referrer of `referee`.
    /// @param referee The account.
    /// @return The referrer, or address(0).
    function referrerOf(address referee) external view returns (address);
}
