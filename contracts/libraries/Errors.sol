// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @notice Every custom error of the marketplace's contracts, named `<Contract>_<Reason>` and carrying
/// the data a client needs. The API maps each one to an error code of the spec (see docs/decisions.md).
library Errors {
    /*//////////////////////////////////////////////////////////////
                               SHARED
    //////////////////////////////////////////////////////////////*/

    /// @notice The caller is neither `account` nor an operator `account` has authorised.
    error Unauthorized(address account, address caller);
    error ZeroAddress();

    /*//////////////////////////////////////////////////////////////
                           MISSION ESCROW
    //////////////////////////////////////////////////////////////*/

    error MissionEscrow_MissionNotFound(uint256 missionId);
    error MissionEscrow_InvalidState(uint256 missionId, Missions.State current);
    error MissionEscrow_RewardTooSmall(uint256 reward, uint256 minimum);
    error MissionEscrow_RewardTooLarge(uint256 reward, uint256 maximum);
    error MissionEscrow_InvalidExpiry(uint256 expiresAt, uint256 earliest, uint256 latest);
    error MissionEscrow_Expired(uint256 missionId, uint256 expiresAt);
    error MissionEscrow_NotExpired(uint256 missionId, uint256 expiresAt);
    error MissionEscrow_NotPoster(uint256 missionId, address account);
    error MissionEscrow_NotPerformer(uint256 missionId, address account);
    error MissionEscrow_NotParty(uint256 missionId, address account);
    error MissionEscrow_PosterCannotPerform(uint256 missionId);
    error MissionEscrow_TermsChanged(uint256 missionId, bytes32 expected, bytes32 actual);
    error MissionEscrow_EmptyHash();
    error MissionEscrow_GuildNotFound(uint32 guildId);
    error MissionEscrow_ReviewWindowOpen(uint256 missionId, uint256 reviewDeadline);
    error MissionEscrow_ReviewWindowClosed(uint256 missionId, uint256 reviewDeadline);
    error MissionEscrow_TransferAmountMismatch(uint256 expected, uint256 received);
    error MissionEscrow_NothingToWithdraw(address account);
    error MissionEscrow_InvalidWindow(uint256 value, uint256 minimum, uint256 maximum);
    error MissionEscrow_InvalidFee(uint256 bps, uint256 maximum);

    error MissionEscrow_DisputeNotFound(uint256 disputeId);
    error MissionEscrow_InvalidDisputeState(uint256 disputeId, Disputes.State current);
    error MissionEscrow_NotResolver(uint256 disputeId, address account);
    error MissionEscrow_ResolverIsParty(uint256 disputeId, address resolver);
    error MissionEscrow_InvalidOutcome(Disputes.Outcome outcome, uint8 splitPercentage);
    error MissionEscrow_DeadlineNotReached(uint256 disputeId, uint256 deadline);
    error MissionEscrow_DeadlinePassed(uint256 disputeId, uint256 deadline);
    /// @notice The appeals resolver is the resolver whose decision is appealed.
    error MissionEscrow_SameResolver(uint256 disputeId, address resolver);
    error MissionEscrow_InvalidToken(address token, uint8 decimals);

    /*//////////////////////////////////////////////////////////////
                           GUILD REGISTRY
    //////////////////////////////////////////////////////////////*/

    error GuildRegistry_GuildNotFound(uint256 guildId);
    error GuildRegistry_NameTaken(string name);
    error GuildRegistry_InvalidName(string name);
    error GuildRegistry_FeeTooHigh(uint256 feeBps, uint256 maximum);
    error GuildRegistry_AlreadyMember(uint256 guildId, address account);
    error GuildRegistry_NotMember(uint256 guildId, address account);
    error GuildRegistry_MissingRole(uint256 guildId, address account, uint8 role);
    error GuildRegistry_LastAdmin(uint256 guildId, address account);
    error GuildRegistry_MissionNotInGuild(uint256 guildId, uint256 missionId);
    error GuildRegistry_MissionNotFound(uint256 missionId);
    error GuildRegistry_InvalidRoles(uint8 roles);
    error GuildRegistry_NotOnBoard(uint256 guildId, uint256 missionId);
    error GuildRegistry_EscrowNotSet();
    error GuildRegistry_EscrowAlreadySet(address escrow);

    /*//////////////////////////////////////////////////////////////
                           ACHIEVEMENT NFT
    //////////////////////////////////////////////////////////////*/

    error AchievementNFT_UnknownAchievement(uint256 achievementId);
    error AchievementNFT_AlreadyDefined(uint256 achievementId);
    error AchievementNFT_AlreadyMinted(address to, uint256 achievementId, uint256 tokenId);
    error AchievementNFT_Soulbound(uint256 tokenId);

    /*//////////////////////////////////////////////////////////////
                         REPUTATION REGISTRY
    //////////////////////////////////////////////////////////////*/

    error ReputationRegistry_ScoreOutOfRange(uint256 score);
    error ReputationRegistry_SelfReferral(address account);
    error ReputationRegistry_AlreadyReferred(address referee, address referrer);

    /*//////////////////////////////////////////////////////////////
                          OPERATOR REGISTRY
    //////////////////////////////////////////////////////////////*/

    error OperatorRegistry_SignatureExpired(uint256 deadline);
    error OperatorRegistry_InvalidSignature(address user);
}
