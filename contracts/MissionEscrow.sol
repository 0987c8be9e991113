// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {MissionEscrowState} from "./abstracts/MissionEscrowState.sol";
import {Settlements} from "./abstracts/Settlements.sol";
import {IGuildRegistry} from "./interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "./interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "./interfaces/IOperatorRegistry.sol";
import {Errors} from "./libraries/Errors.sol";
import {SettlementMath} from "./libraries/SettlementMath.sol";
import {Missions} from "./types/DataTypes.sol";

/// @title MissionEscrow
/// @notice Holds every reward, DDR and LPP of the marketplace and is the truth of every mission and
/// dispute. See IMissionEscrow and docs/decisions.md.
/// @dev The deployed contract: the mission state machine, partial releases and refunds, payments and
/// admin, on top of Settlements (offers between the parties), DisputeCourt (the disputes) and
/// MissionEscrowState (storage, views and shared helpers).
contract MissionEscrow is IMissionEscrow, Settlements {
    using SafeERC20 for IERC20;

    /*//////////////////////////////////////////////////////////////
                              CONSTRUCTOR
    //////////////////////////////////////////////////////////////*/

    /// @param token_ The stablecoin (6 decimals) every amount is paid in.
    /// @param operators_ The registry of operators that may act for a party.
    /// @param guilds_ The registry of guilds missions may be posted into.
    /// @param admin The first holder of DEFAULT_ADMIN_ROLE.
    /// @param protocolTreasury_ The receiver of the protocol share.
    /// @param labsTreasury_ The receiver of the labs share.
    constructor(
        IERC20 token_,
        IOperatorRegistry operators_,
        IGuildRegistry guilds_,
        address admin,
        address protocolTreasury_,
        address labsTreasury_
    ) MissionEscrowState(token_, operators_, guilds_, admin, protocolTreasury_, labsTreasury_) {}

    /*//////////////////////////////////////////////////////////////
                                MISSIONS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrow
    function createMission(address poster, uint256 reward, uint256 expiresAt, uint32 guildId, bytes32 detailsHash)
        external
        nonReentrant
        returns (uint256 missionId)
    {
        // Checks
        _checkParty(poster);
        if (reward < MIN_REWARD) revert Errors.MissionEscrow_RewardTooSmall(reward, MIN_REWARD);
        if (reward > MAX_REWARD) revert Errors.MissionEscrow_RewardTooLarge(reward, MAX_REWARD);
        if (expiresAt < block.timestamp + MIN_DURATION || expiresAt > block.timestamp + MAX_DURATION) {
            revert Errors.MissionEscrow_InvalidExpiry(
                expiresAt, block.timestamp + MIN_DURATION, block.timestamp + MAX_DURATION
            );
        }
        if (detailsHash == bytes32(0)) revert Errors.MissionEscrow_EmptyHash();
        uint16 guildFeeBps;
        if (guildId != 0) {
            if (!guilds.guildExists(guildId)) revert Errors.MissionEscrow_GuildNotFound(guildId);
            guildFeeBps = guilds.guildFeeBps(guildId);
            if (guildFeeBps > MAX_GUILD_FEE_BPS) revert Errors.MissionEscrow_InvalidFee(guildFeeBps, MAX_GUILD_FEE_BPS);
        }

        // Effects
        missionId = ++missionCount;
        Missions.Record storage m = _missions[missionId];
        // Slot 0 as one word (poster | reward << 160 | expiresAt << 208 | Open (0) << 240 | inGuild << 248,
        // Missions.Record): field by field the optimizer merges the writes into one SSTORE but keeps the
        // masking of each field (issue 40, G1). `poster` is a decoded address and `reward` fits 48 bits
        // (checked above); `expiresAt` is cut to 32 bits as `uint32(expiresAt)` would (at most a year away).
        assembly ("memory-safe") {
            sstore(
                m.slot,
                or(or(poster, shl(160, reward)), or(shl(208, and(expiresAt, 0xffffffff)), shl(248, iszero(iszero(guildId)))))
            )
        }
        _setTerms(m, detailsHash); // slot 1 until acceptance
        if (guildId != 0) {
            m.postedGuildId = guildId;
            m.postedGuildFeeBps = guildFeeBps;
        }
        emit MissionCreated(missionId, poster, guildId, reward, expiresAt, guildFeeBps, detailsHash);

        // Interactions
        _pull(poster, reward);
    }

    /// @inheritdoc IMissionEscrow
    function updateDetails(uint256 missionId, bytes32 detailsHash) external {
        Missions.Record storage m = _mission(missionId);
        _checkPoster(missionId, m.poster);
        _checkOpenNotExpired(missionId, m);
        if (detailsHash == bytes32(0)) revert Errors.MissionEscrow_EmptyHash();
        emit MissionDetailsUpdated(missionId, _terms(m), detailsHash);
        _setTerms(m, detailsHash);
    }

    /// @inheritdoc IMissionEscrow
    function acceptMission(uint256 missionId, address performer, bytes32 detailsHash) external {
        Missions.Record storage m = _mission(missionId);
        _checkParty(performer);
        _checkOpenNotExpired(missionId, m);
        if (performer == m.poster) revert Errors.MissionEscrow_PosterCannotPerform(missionId);
        bytes32 current = _terms(m);
        if (detailsHash != current) revert Errors.MissionEscrow_TermsChanged(missionId, detailsHash, current);
        uint256 guildId;
        uint256 guildFeeBps;
        if (m.inGuild) (guildId, guildFeeBps) = (m.postedGuildId, m.postedGuildFeeBps); // slot 2: a guild's only
        uint256 expiresAt = m.expiresAt; // the review deadline until proof (Missions.Record)
        // Slot 1 becomes the record, one word over the terms just checked (Missions.Record): performer |
        // reviewDeadline << 160 | guildFeeBps << 192 | guildId << 208, `parts` false. Field by field would
        // keep the terms' other bits.
        assembly ("memory-safe") {
            sstore(
                add(m.slot, 1),
                or(or(performer, shl(160, expiresAt)), or(shl(192, guildFeeBps), shl(208, guildId)))
            )
        }
        m.state = Missions.State.Accepted;
        emit MissionAccepted(missionId, performer);
    }

    /// @inheritdoc IMissionEscrow
    function submitProof(uint256 missionId, bytes32 proofHash) external {
        // The state (slot 0) and the record (slot 1): an accepted mission carries its expiry there.
        Missions.Record storage m = _missions[missionId];
        address performer = _performerOf(m);
        if (performer == address(0)) _mission(missionId); // never accepted: MissionNotFound if it does not exist
        if (msg.sender != performer && !operators.isAuthorized(performer, msg.sender)) {
            revert Errors.MissionEscrow_NotPerformer(missionId, msg.sender);
        }
        if (m.state != Missions.State.Accepted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        uint256 expiresAt = m.reviewDeadline; // the expiry, copied at acceptance
        if (block.timestamp >= expiresAt) revert Errors.MissionEscrow_Expired(missionId, expiresAt);
        if (proofHash == bytes32(0)) revert Errors.MissionEscrow_EmptyHash();
        uint256 reviewDeadline = block.timestamp + _windows[uint8(Missions.Window.Review)];
        m.reviewDeadline = uint32(reviewDeadline);
        m.state = Missions.State.Submitted;
        emit MissionSubmitted(missionId, proofHash, reviewDeadline);
    }

    /// @inheritdoc IMissionEscrow
    function approveMission(uint256 missionId)
        external
        nonReentrant
        returns (Missions.Settlement memory settlement)
    {
        Missions.Record storage m = _mission(missionId);
        _checkPoster(missionId, m.poster);
        if (m.state != Missions.State.Submitted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        settlement = _complete(missionId, m, false);
    }

    /// @inheritdoc IMissionEscrow
    function claimAfterReview(uint256 missionId)
        external
        nonReentrant
        returns (Missions.Settlement memory settlement)
    {
        Missions.Record storage m = _mission(missionId);
        if (m.state != Missions.State.Submitted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp < m.reviewDeadline) {
            revert Errors.MissionEscrow_ReviewWindowOpen(missionId, m.reviewDeadline);
        }
        settlement = _complete(missionId, m, true);
    }

    /// @inheritdoc IMissionEscrow
    function cancelMission(uint256 missionId) external nonReentrant returns (uint256 refund) {
        Missions.Record storage m = _mission(missionId);
        address poster = m.poster;
        _checkPoster(missionId, poster);
        if (m.state != Missions.State.Open) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        // Effects, then the push.
        _end(m, Missions.State.Cancelled);
        refund = m.reward;
        emit MissionCancelled(missionId, poster, refund);
        _push(poster, refund);
    }

    /// @inheritdoc IMissionEscrow
    function expireMission(uint256 missionId) external nonReentrant returns (uint256 refund) {
        Missions.Record storage m = _mission(missionId);
        Missions.State state = m.state;
        if (state != Missions.State.Open && state != Missions.State.Accepted) {
            revert Errors.MissionEscrow_InvalidState(missionId, state);
        }
        if (block.timestamp < m.expiresAt) revert Errors.MissionEscrow_NotExpired(missionId, m.expiresAt);
        // Effects, then the push.
        _end(m, Missions.State.Expired);
        refund = _remainder(m);
        emit MissionExpired(missionId, m.poster, m.performer, refund); // no performer if it was Open (cleared)
        _push(m.poster, refund);
    }

    /// @inheritdoc IMissionEscrow
    function releasePartial(uint256 missionId, uint256 amount)
        external
        nonReentrant
        returns (Missions.Settlement memory settlement)
    {
        // Checks
        Missions.Record storage m = _mission(missionId);
        _checkPoster(missionId, m.poster);
        uint256 remaining = _checkPart(missionId, m, amount) - amount;

        // Effects
        if (m.state == Missions.State.Submitted) delete _offers[missionId]; // they were made on another remainder
        m.parts = true;
        m.released += uint64(amount);
        if (remaining == 0) _end(m, Missions.State.Completed);
        settlement = SettlementMath.settle(amount, m.guildFeeBps);
        _accrue(m, settlement);
        address performer = m.performer;
        emit MissionReleased(missionId, performer, amount, settlement, remaining);

        // Interactions
        _push(performer, settlement.performerAmount);
    }

    /// @inheritdoc IMissionEscrow
    function refundPartial(uint256 missionId, uint256 amount) external nonReentrant {
        // Checks
        Missions.Record storage m = _mission(missionId);
        address performer = _performerOf(m);
        if (msg.sender != performer && !operators.isAuthorized(performer, msg.sender)) {
            revert Errors.MissionEscrow_NotPerformer(missionId, msg.sender);
        }
        uint256 remaining = _checkPart(missionId, m, amount) - amount;

        // Effects
        if (m.state == Missions.State.Submitted) delete _offers[missionId]; // they were made on another remainder
        m.parts = true;
        m.refunded += uint64(amount);
        if (remaining == 0) _end(m, Missions.State.Cancelled);
        address poster = m.poster;
        emit MissionRefunded(missionId, poster, amount, remaining);

        // Interactions
        _push(poster, amount);
    }

    /*//////////////////////////////////////////////////////////////
                                PAYMENTS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrow
    function withdraw(address account) external nonReentrant returns (uint256 amount) {
        amount = credits[account];
        if (amount == 0) revert Errors.MissionEscrow_NothingToWithdraw(account);
        credits[account] = 0;
        emit Withdrawn(account, amount);
        _token.safeTransfer(account, amount);
    }

    /// @inheritdoc IMissionEscrow
    function withdrawGuildFees(uint32 guildId) external nonReentrant returns (uint256 amount) {
        address treasury = guilds.guildTreasury(guildId);
        amount = guildFees[guildId];
        if (amount == 0) revert Errors.MissionEscrow_NothingToWithdraw(treasury);
        if (treasury == address(0)) revert Errors.ZeroAddress();
        guildFees[guildId] = 0;
        emit GuildFeesWithdrawn(guildId, treasury, amount);
        _token.safeTransfer(treasury, amount);
    }

    /// @inheritdoc IMissionEscrow
    function withdrawFees() external nonReentrant returns (uint256 protocolAmount, uint256 labsAmount) {
        Missions.Accruals storage a = _accruals;
        (protocolAmount, labsAmount) = (a.protocolFees, a.labsFees);
        address protocol = protocolTreasury;
        if (protocolAmount == 0 && labsAmount == 0) revert Errors.MissionEscrow_NothingToWithdraw(protocol);
        (a.protocolFees, a.labsFees) = (0, 0);
        address labs = labsTreasury;
        emit FeesWithdrawn(protocol, protocolAmount, labs, labsAmount);
        _push(protocol, protocolAmount);
        _push(labs, labsAmount);
    }

    /*//////////////////////////////////////////////////////////////
                                 ADMIN
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrow
    function setWindow(Missions.Window window, uint256 value) external onlyRole(DEFAULT_ADMIN_ROLE) {
        (uint256 minimum, uint256 maximum) = windowBounds(window);
        if (value < minimum || value > maximum) revert Errors.MissionEscrow_InvalidWindow(value, minimum, maximum);
        _windows[uint8(window)] = uint32(value);
        emit WindowSet(uint8(window), value);
    }

    /// @inheritdoc IMissionEscrow
    function setTreasuries(address protocolTreasury_, address labsTreasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setTreasuries(protocolTreasury_, labsTreasury_);
    }

    /*//////////////////////////////////////////////////////////////
                                INTERNAL
    //////////////////////////////////////////////////////////////*/

    /// @dev Settles the remainder of a Submitted mission into the five shares: the fees and the pool's share
    /// accrue, the performer's share is pushed.
    function _complete(uint256 missionId, Missions.Record storage m, bool byClaim)
        internal
        returns (Missions.Settlement memory s)
    {
        // Effects
        m.state = Missions.State.Completed;
        s = SettlementMath.settle(_remainder(m), m.guildFeeBps);
        address performer = m.performer;
        _accrue(m, s);
        emit MissionCompleted(missionId, s, byClaim);

        // Interactions
        _push(performer, s.performerAmount);
    }

    /// @dev Ends an Open mission (cancel, expiry), an Accepted one (expiry) or an Accepted or Submitted one
    /// (its whole remainder released or refunded). Leaving Open clears the terms from slot 1, which becomes
    /// an empty record; leaving Accepted clears the expiry kept in `reviewDeadline` until proof, so a
    /// mission that was never submitted shows 0 there (Missions.Record).
    function _end(Missions.Record storage m, Missions.State state) internal {
        Missions.State from = m.state;
        if (from == Missions.State.Open) _setTerms(m, 0);
        else if (from == Missions.State.Accepted) m.reviewDeadline = 0;
        m.state = state;
    }

    /// @dev The mission may move money in parts: Accepted (even past its expiry, until someone expires
    /// it) or Submitted; `amount` is 1..remainder. Returns the remainder before the move.
    function _checkPart(uint256 missionId, Missions.Record storage m, uint256 amount)
        internal
        view
        returns (uint256 remainder)
    {
        Missions.State state = m.state;
        if (state != Missions.State.Accepted && state != Missions.State.Submitted) {
            revert Errors.MissionEscrow_InvalidState(missionId, state);
        }
        remainder = _remainder(m);
        if (amount == 0 || amount > remainder) revert Errors.MissionEscrow_InvalidAmount(amount, remainder);
    }

    /// @dev The caller acts for the poster; a poster-only error tells the API which party was expected.
    function _checkPoster(uint256 missionId, address poster) internal view {
        if (msg.sender != poster && !operators.isAuthorized(poster, msg.sender)) {
            revert Errors.MissionEscrow_NotPoster(missionId, msg.sender);
        }
    }

    /// @dev The mission can still change hands: Open and before its expiry.
    function _checkOpenNotExpired(uint256 missionId, Missions.Record storage m) internal view {
        if (m.state != Missions.State.Open) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp >= m.expiresAt) revert Errors.MissionEscrow_Expired(missionId, m.expiresAt);
    }
}
