// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @notice Every custom error of the marketplace's contracts, named `<Contract>_<Reason>` and carrying
/// the data a client needs. The API maps each one to an error code of the spec (see docs/decisions.md).
library Errors {
    /*//////////////////////////////////////////////////////////////
                               SHARED
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when the caller acts for `account` but is neither `account` nor an operator
    /// `account` has authorised in the OperatorRegistry.
    error Unauthorized(address account, address caller);

    /// @notice Thrown when a constructor or setter gets the zero address where a real one is needed (admin,
    /// registry, treasury, operator, account), or when guild fees would be paid to a zero treasury.
    error ZeroAddress();

    /*//////////////////////////////////////////////////////////////
                           MISSION ESCROW
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when no mission has the id `missionId`.
    error MissionEscrow_MissionNotFound(uint256 missionId);

    /// @notice Thrown when the mission's state (`current`) does not allow the action.
    error MissionEscrow_InvalidState(uint256 missionId, Missions.State current);

    /// @notice Thrown when a mission is created with a reward below `minimum` (MIN_REWARD).
    error MissionEscrow_RewardTooSmall(uint256 reward, uint256 minimum);

    /// @notice Thrown when a mission is created with a reward above `maximum` (MAX_REWARD).
    error MissionEscrow_RewardTooLarge(uint256 reward, uint256 maximum);

    /// @notice Thrown when a mission is created with an expiry outside [`earliest`, `latest`].
    error MissionEscrow_InvalidExpiry(uint256 expiresAt, uint256 earliest, uint256 latest);

    /// @notice Thrown when the mission expired (`block.timestamp >= expiresAt`) before the action.
    error MissionEscrow_Expired(uint256 missionId, uint256 expiresAt);

    /// @notice Thrown when a mission is expired before its expiry (`block.timestamp < expiresAt`).
    error MissionEscrow_NotExpired(uint256 missionId, uint256 expiresAt);

    /// @notice Thrown when `account`, the caller, is neither the poster nor an operator of the poster.
    error MissionEscrow_NotPoster(uint256 missionId, address account);

    /// @notice Thrown when `account`, the caller, is neither the performer nor an operator of the performer.
    error MissionEscrow_NotPerformer(uint256 missionId, address account);

    /// @notice Thrown when `account` disputes, appeals, submits evidence or offers, withdraws or accepts a
    /// settlement but is neither the poster nor the performer of the mission.
    error MissionEscrow_NotParty(uint256 missionId, address account);

    /// @notice Thrown when the poster tries to accept their own mission.
    error MissionEscrow_PosterCannotPerform(uint256 missionId);

    /// @notice Thrown when a performer accepts under `expected` terms but the mission's commitment is now
    /// `actual` (the poster edited the details in between).
    error MissionEscrow_TermsChanged(uint256 missionId, bytes32 expected, bytes32 actual);

    /// @notice Thrown when a details, proof or evidence hash is zero.
    error MissionEscrow_EmptyHash();

    /// @notice Thrown when a mission is created in a guild that does not exist.
    error MissionEscrow_GuildNotFound(uint32 guildId);

    /// @notice Thrown when a Submitted mission is claimed before its review deadline.
    error MissionEscrow_ReviewWindowOpen(uint256 missionId, uint256 reviewDeadline);

    /// @notice Thrown when a mission is disputed at or after its review deadline.
    error MissionEscrow_ReviewWindowClosed(uint256 missionId, uint256 reviewDeadline);

    /// @notice Thrown when a pull delivers `received` instead of `expected` (a fee-on-transfer token).
    error MissionEscrow_TransferAmountMismatch(uint256 expected, uint256 received);

    /// @notice Thrown when a withdrawal finds nothing credited to `account` (or accrued to a guild, whose
    /// treasury is `account`).
    error MissionEscrow_NothingToWithdraw(address account);

    /// @notice Thrown when an admin sets a window to `value` outside [`minimum`, `maximum`].
    error MissionEscrow_InvalidWindow(uint256 value, uint256 minimum, uint256 maximum);

    /// @notice Thrown when a mission is created in a guild whose fee `bps` exceeds `maximum`
    /// (MAX_GUILD_FEE_BPS).
    error MissionEscrow_InvalidFee(uint256 bps, uint256 maximum);

    /// @notice Thrown when no dispute has the id `disputeId`.
    error MissionEscrow_DisputeNotFound(uint256 disputeId);

    /// @notice Thrown when the dispute's state (`current`) does not allow the action.
    error MissionEscrow_InvalidDisputeState(uint256 disputeId, Disputes.State current);

    /// @notice Thrown when `account`, the caller, is neither the assigned resolver nor its operator.
    error MissionEscrow_NotResolver(uint256 disputeId, address account);

    /// @notice Thrown when a resolver or appeals resolver is the poster or the performer of the mission.
    error MissionEscrow_ResolverIsParty(uint256 disputeId, address resolver);

    /// @notice Thrown when a decision is None, or Split without a percentage in 1..99, or another outcome
    /// with a non-zero percentage.
    error MissionEscrow_InvalidOutcome(Disputes.Outcome outcome, uint8 splitPercentage);

    /// @notice Thrown when a dispute is released or finalized before `deadline`.
    error MissionEscrow_DeadlineNotReached(uint256 disputeId, uint256 deadline);

    /// @notice Thrown when a dispute is taken, resolved, appealed or decided at or after `deadline`.
    error MissionEscrow_DeadlinePassed(uint256 disputeId, uint256 deadline);

    /// @notice Thrown when the appeals resolver is the resolver whose decision is appealed.
    error MissionEscrow_SameResolver(uint256 disputeId, address resolver);

    /// @notice Thrown when a partial release or refund is not in 1..`remainder`, or a settlement offer is
    /// above `remainder` (the mission's remainder, `remainingOf`).
    error MissionEscrow_InvalidAmount(uint256 amount, uint256 remainder);

    /// @notice Thrown when `party` withdraws an offer it has not made, or accepts the other party's offer
    /// when there is none (`party` is then the other party, whose offer is missing).
    error MissionEscrow_NoOffer(uint256 missionId, address party);

    /// @notice Thrown when a settlement is accepted for `expected` to the performer but the other party's
    /// open offer is now `actual`.
    error MissionEscrow_OfferChanged(uint256 missionId, uint256 expected, uint256 actual);

    /// @notice Thrown when the escrow is deployed with a token that does not have 6 decimals.
    error MissionEscrow_InvalidToken(address token, uint8 decimals);

    /*//////////////////////////////////////////////////////////////
                           GUILD REGISTRY
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when no guild has the id `guildId`.
    error GuildRegistry_GuildNotFound(uint256 guildId);

    /// @notice Thrown when a guild is created with a name another guild holds.
    error GuildRegistry_NameTaken(string name);

    /// @notice Thrown when a guild name is not a slug of 3..32 characters in [a-z0-9-].
    error GuildRegistry_InvalidName(string name);

    /// @notice Thrown when a guild's fee `feeBps` exceeds `maximum` (MAX_FEE_BPS).
    error GuildRegistry_FeeTooHigh(uint256 feeBps, uint256 maximum);

    /// @notice Thrown when `account` joins a guild it is already a member of.
    error GuildRegistry_AlreadyMember(uint256 guildId, address account);

    /// @notice Thrown when `account` leaves, acts in or gets roles in a guild it is not a member of.
    error GuildRegistry_NotMember(uint256 guildId, address account);

    /// @notice Thrown when `account` lacks `role` (a Guilds.ROLE_* bit) for the action.
    error GuildRegistry_MissingRole(uint256 guildId, address account, uint8 role);

    /// @notice Thrown when the guild's last admin would leave or lose the admin role.
    error GuildRegistry_LastAdmin(uint256 guildId, address account);

    /// @notice Thrown when a curator publishes a mission that was not posted into the guild.
    error GuildRegistry_MissionNotInGuild(uint256 guildId, uint256 missionId);

    /// @notice Thrown when a curator publishes a mission the escrow does not know.
    error GuildRegistry_MissionNotFound(uint256 missionId);

    /// @notice Thrown when role bits other than curator, officer and admin are set.
    error GuildRegistry_InvalidRoles(uint8 roles);

    /// @notice Thrown when a curator removes a mission that is not on the guild's board.
    error GuildRegistry_NotOnBoard(uint256 guildId, uint256 missionId);

    /// @notice Thrown when a mission is published before the admin set the escrow.
    error GuildRegistry_EscrowNotSet();

    /// @notice Thrown when the admin sets the escrow a second time (it is set once).
    error GuildRegistry_EscrowAlreadySet(address escrow);

    /*//////////////////////////////////////////////////////////////
                           ACHIEVEMENT NFT
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when a token is minted of a kind that was never defined.
    error AchievementNFT_UnknownAchievement(uint256 achievementId);

    /// @notice Thrown when a kind is defined a second time.
    error AchievementNFT_AlreadyDefined(uint256 achievementId);

    /// @notice Thrown when `to` already holds token `tokenId` of kind `achievementId`.
    error AchievementNFT_AlreadyMinted(address to, uint256 achievementId, uint256 tokenId);

    /// @notice Thrown when a soulbound token would be transferred or approved; it never moves after the
    /// mint.
    error AchievementNFT_Soulbound(uint256 tokenId);

    /*//////////////////////////////////////////////////////////////
                         REPUTATION REGISTRY
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when a builder score above 100 is set.
    error ReputationRegistry_ScoreOutOfRange(uint256 score);

    /// @notice Thrown when an account would refer itself.
    error ReputationRegistry_SelfReferral(address account);

    /// @notice Thrown when `referee` already has a referrer (`referrer`).
    error ReputationRegistry_AlreadyReferred(address referee, address referrer);

    /*//////////////////////////////////////////////////////////////
                          OPERATOR REGISTRY
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when a signed operator grant is used after its `deadline`.
    error OperatorRegistry_SignatureExpired(uint256 deadline);

    /// @notice Thrown when a signed operator grant is not signed by `user` (ECDSA or EIP-1271) over its
    /// current nonce.
    error OperatorRegistry_InvalidSignature(address user);

    /*//////////////////////////////////////////////////////////////
                          RELAYER EXECUTOR
    //////////////////////////////////////////////////////////////*/

    /// @notice Thrown when a key forwards a (`target`, `selector`) pair the admin has not allowlisted, or
    /// calldata shorter than a selector (`selector` is then zero).
    error RelayerExecutor_CallNotAllowed(address target, bytes4 selector);

    /// @notice Thrown when the admin would allowlist the executor itself as a target.
    error RelayerExecutor_SelfTarget();

    /// @notice Thrown when the admin would allowlist `target`, which has no code.
    error RelayerExecutor_NotAContract(address target);

    /// @notice Thrown when forwarded calldata names the executor itself as an argument (a party, an
    /// account to pay or to act for): the executor only acts for users who approved it.
    error RelayerExecutor_SelfAsParty(address target, bytes4 selector);

    /// @notice Thrown when a batch is empty or longer than `maximum`.
    error RelayerExecutor_InvalidBatchSize(uint256 size, uint256 maximum);
}
