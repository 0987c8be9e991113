// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

import {IReputationRegistry} from "./interfaces/IReputationRegistry.sol";
import {Errors} from "./libraries/Errors.sol";

/// @title ReputationRegistry
/// @notice See the documentation in {IReputationRegistry}.
/// @dev A builder score can be set again (the latest wins; a score of 0 is a set score, unlike "never
/// set"). A referral is recorded once per referee and never changes.
contract ReputationRegistry is IReputationRegistry, AccessControl {
    /// @dev A score is at most 100.
    uint8 public constant MAX_SCORE = 100;

    /// @inheritdoc IReputationRegistry
    bytes32 public constant override PROVIDER_ROLE = keccak256("PROVIDER_ROLE");

    /// @inheritdoc IReputationRegistry
    bytes32 public constant override REFERRER_ROLE = keccak256("REFERRER_ROLE");

    struct BuilderScore {
        uint8 score;
        bool isSet;
    }

    mapping(address account => BuilderScore) private _builderScores;
    mapping(address referee => address referrer) private _referrers;

    constructor(address admin) {
        if (admin == address(0)) revert Errors.ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @inheritdoc IReputationRegistry
    function setBuilderScore(address account, uint8 score) external override onlyRole(PROVIDER_ROLE) {
        if (account == address(0)) revert Errors.ZeroAddress();
        if (score > MAX_SCORE) revert Errors.ReputationRegistry_ScoreOutOfRange(score);
        _builderScores[account] = BuilderScore({score: score, isSet: true});
        emit BuilderScoreSet(account, score, msg.sender);
    }

    /// @inheritdoc IReputationRegistry
    function recordReferral(address referrer, address referee) external override onlyRole(REFERRER_ROLE) {
        if (referrer == address(0) || referee == address(0)) revert Errors.ZeroAddress();
        if (referrer == referee) revert Errors.ReputationRegistry_SelfReferral(referee);
        address existing = _referrers[referee];
        if (existing != address(0)) revert Errors.ReputationRegistry_AlreadyReferred(referee, existing);
        _referrers[referee] = referrer;
        emit ReferralRecorded(referrer, referee);
    }

    /// @inheritdoc IReputationRegistry
    function builderScoreOf(address account) external view override returns (uint8 score, bool isSet) {
        BuilderScore memory entry = _builderScores[account];
        return (entry.score, entry.isSet);
    }

    /// @inheritdoc IReputationRegistry
    function referrerOf(address referee) external view override returns (address) {
        return _referrers[referee];
    }
}
