// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IReputationRegistry
/// @notice The off-chain inputs of XP, put on-chain so that the indexer derives XP purely from chain
/// events: builder scores (set by the builder-score provider role) and referrals (recorded by the
/// relayer role).
interface IReputationRegistry {
    /// @notice The provider set `account`'s builder score (0..100).
    event BuilderScoreSet(address indexed account, uint8 score, address indexed provider);

    /// @notice `referee` was referred by `referrer` (once per referee).
    event ReferralRecorded(address indexed referrer, address indexed referee);

    /// @dev Requirements: caller holds PROVIDER_ROLE; `score <= 100`.
    function setBuilderScore(address account, uint8 score) external;

    /// @dev Requirements: caller holds REFERRER_ROLE; `referrer != referee`; `referee` not referred yet.
    function recordReferral(address referrer, address referee) external;

    function PROVIDER_ROLE() external view returns (bytes32);
    function REFERRER_ROLE() external view returns (bytes32);
    function builderScoreOf(address account) external view returns (uint8 score, bool isSet);
    function referrerOf(address referee) external view returns (address);
}
