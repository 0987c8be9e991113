// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IGuildRegistry} from "./interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "./interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "./interfaces/IOperatorRegistry.sol";
import {Errors} from "./libraries/Errors.sol";
import {SettlementMath} from "./libraries/SettlementMath.sol";
import {Missions, Disputes} from "./types/DataTypes.sol";

/// @title MissionEscrow
/// @notice Holds every reward, DDR and LPP of the marketplace and is the truth of every mission and
/// dispute. See IMissionEscrow and docs/decisions.md.
contract MissionEscrow is IMissionEscrow, AccessControl, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /*//////////////////////////////////////////////////////////////
                               CONSTANTS
    //////////////////////////////////////////////////////////////*/

    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    bytes32 public constant APPEALS_ROLE = keccak256("APPEALS_ROLE");

    uint256 public constant PROTOCOL_FEE_BPS = SettlementMath.PROTOCOL_FEE_BPS;
    uint256 public constant LABS_FEE_BPS = SettlementMath.LABS_FEE_BPS;
    uint256 public constant RESOLVER_FEE_BPS = SettlementMath.RESOLVER_FEE_BPS;
    uint256 public constant RESERVE_BPS = SettlementMath.RESERVE_BPS;
    uint256 public constant MIN_RESERVE = SettlementMath.MIN_RESERVE;
    uint256 public constant MAX_GUILD_FEE_BPS = 1000;
    uint256 public constant MIN_REWARD = 1;
    uint256 public constant MAX_REWARD = type(uint64).max;
    uint256 public constant MIN_DURATION = 60;
    uint256 public constant MAX_DURATION = 365 days;

    /*//////////////////////////////////////////////////////////////
                                STORAGE
    //////////////////////////////////////////////////////////////*/

    IERC20 internal immutable _token;
    IOperatorRegistry public immutable operators;
    IGuildRegistry public immutable guilds;

    /// @inheritdoc IMissionEscrow
    address public protocolTreasury;
    /// @inheritdoc IMissionEscrow
    address public labsTreasury;

    /// @dev Indexed by Missions.Window; five uint32 in one slot.
    uint32[5] internal _windows;

    /// @inheritdoc IMissionEscrow
    uint256 public missionCount;
    /// @inheritdoc IMissionEscrow
    uint256 public disputeCount;

    mapping(uint256 missionId => Missions.Record) internal _missions;
    mapping(uint256 disputeId => Disputes.Dispute) internal _disputes;
    /// @inheritdoc IMissionEscrow
    mapping(uint256 missionId => uint256 disputeId) public disputeOf;
    /// @inheritdoc IMissionEscrow
    mapping(address account => uint256 amount) public credits;
    /// @inheritdoc IMissionEscrow
    mapping(uint32 guildId => uint256 amount) public guildFees;

    /*//////////////////////////////////////////////////////////////
                              CONSTRUCTOR
    //////////////////////////////////////////////////////////////*/

    constructor(
        IERC20 token_,
        IOperatorRegistry operators_,
        IGuildRegistry guilds_,
        address admin,
        address protocolTreasury_,
        address labsTreasury_
    ) {
        if (address(operators_) == address(0) || address(guilds_) == address(0) || admin == address(0)) {
            revert Errors.ZeroAddress();
        }
        uint8 decimals = IERC20Metadata(address(token_)).decimals();
        if (decimals != 6) revert Errors.MissionEscrow_InvalidToken(address(token_), decimals);
        _token = token_;
        operators = operators_;
        guilds = guilds_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _setTreasuries(protocolTreasury_, labsTreasury_);
        _windows = [uint32(7 days), uint32(3 days), uint32(3 days), uint32(7 days), uint32(30 days)];
    }

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
        // Field by field: slot 1 (performer, state, guild) is written only for a guild mission.
        Missions.Record storage m = _missions[missionId];
        m.poster = poster;
        m.reward = uint64(reward);
        m.expiresAt = uint32(expiresAt);
        if (guildId != 0) {
            m.guildId = guildId;
            m.guildFeeBps = guildFeeBps;
        }
        m.detailsHash = detailsHash;
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
        emit MissionDetailsUpdated(missionId, m.detailsHash, detailsHash);
        m.detailsHash = detailsHash;
    }

    /// @inheritdoc IMissionEscrow
    function acceptMission(uint256 missionId, address performer, bytes32 detailsHash) external {
        Missions.Record storage m = _mission(missionId);
        _checkParty(performer);
        _checkOpenNotExpired(missionId, m);
        if (performer == m.poster) revert Errors.MissionEscrow_PosterCannotPerform(missionId);
        bytes32 current = m.detailsHash;
        if (detailsHash != current) revert Errors.MissionEscrow_TermsChanged(missionId, detailsHash, current);
        m.performer = performer;
        m.state = Missions.State.Accepted;
        emit MissionAccepted(missionId, performer, detailsHash);
    }

    /// @inheritdoc IMissionEscrow
    function submitProof(uint256 missionId, bytes32 proofHash) external {
        Missions.Record storage m = _mission(missionId);
        address performer = m.performer;
        if (msg.sender != performer && !operators.isAuthorized(performer, msg.sender)) {
            revert Errors.MissionEscrow_NotPerformer(missionId, msg.sender);
        }
        if (m.state != Missions.State.Accepted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp >= m.expiresAt) revert Errors.MissionEscrow_Expired(missionId, m.expiresAt);
        if (proofHash == bytes32(0)) revert Errors.MissionEscrow_EmptyHash();
        uint256 reviewDeadline = block.timestamp + _windows[uint8(Missions.Window.Review)];
        m.reviewDeadline = uint32(reviewDeadline);
        m.state = Missions.State.Submitted;
        emit MissionSubmitted(missionId, performer, proofHash, reviewDeadline);
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
        m.state = Missions.State.Cancelled;
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
        m.state = Missions.State.Expired;
        refund = m.reward;
        emit MissionExpired(missionId, m.poster, m.performer, refund);
        _push(m.poster, refund);
    }

    /*//////////////////////////////////////////////////////////////
                                DISPUTES
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrow
    function raiseDispute(uint256 missionId, address initiator, bytes32 reasonHash)
        external
        nonReentrant
        returns (uint256 disputeId)
    {
        // Checks
        Missions.Record storage m = _mission(missionId);
        _checkParty(initiator);
        if (initiator != m.poster && initiator != m.performer) {
            revert Errors.MissionEscrow_NotParty(missionId, initiator);
        }
        if (m.state != Missions.State.Submitted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp >= m.reviewDeadline) {
            revert Errors.MissionEscrow_ReviewWindowClosed(missionId, m.reviewDeadline);
        }

        // Effects
        uint256 ddr = SettlementMath.reserveFor(m.reward);
        m.state = Missions.State.Disputed;
        disputeId = ++disputeCount;
        disputeOf[missionId] = disputeId;
        uint256 timeoutAt = block.timestamp + _windows[uint8(Missions.Window.DisputeTimeout)];
        Disputes.Dispute storage d = _disputes[disputeId];
        d.missionId = uint64(missionId);
        d.initiator = initiator;
        d.raisedAt = uint32(block.timestamp);
        d.state = Disputes.State.Pending;
        d.deadline = uint32(timeoutAt);
        d.ddrAmount = uint64(ddr);
        d.timeoutAt = uint32(timeoutAt);
        emit DisputeRaised(disputeId, missionId, initiator, ddr, reasonHash);

        // Interactions
        _pull(initiator, ddr);
    }

    /// @inheritdoc IMissionEscrow
    function takeDispute(uint256 disputeId, address resolver) external {
        Disputes.Dispute storage d = _dispute(disputeId);
        _checkParty(resolver);
        _checkRole(RESOLVER_ROLE, resolver);
        _checkNotParty(disputeId, d, resolver);
        if (d.state != Disputes.State.Pending) revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        if (block.timestamp >= d.timeoutAt) revert Errors.MissionEscrow_DeadlinePassed(disputeId, d.timeoutAt);
        uint256 deadline = block.timestamp + _windows[uint8(Missions.Window.Resolution)];
        d.state = Disputes.State.Investigating;
        d.resolver = resolver;
        d.deadline = uint32(deadline);
        emit DisputeAssigned(disputeId, resolver, deadline);
    }

    /// @inheritdoc IMissionEscrow
    function releaseDispute(uint256 disputeId) external {
        Disputes.Dispute storage d = _dispute(disputeId);
        if (d.state != Disputes.State.Investigating) {
            revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        }
        if (block.timestamp < d.deadline) revert Errors.MissionEscrow_DeadlineNotReached(disputeId, d.deadline);
        address resolver = d.resolver;
        d.state = Disputes.State.Pending;
        d.resolver = address(0);
        d.deadline = d.timeoutAt;
        emit DisputeReleased(disputeId, resolver);
    }

    /// @inheritdoc IMissionEscrow
    function submitEvidence(uint256 disputeId, address party, bytes32 evidenceHash) external {
        Disputes.Dispute storage d = _dispute(disputeId);
        _checkParty(party);
        if (d.state != Disputes.State.Pending && d.state != Disputes.State.Investigating) {
            revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        }
        if (evidenceHash == bytes32(0)) revert Errors.MissionEscrow_EmptyHash();
        Missions.Record storage m = _missions[d.missionId];
        bool isPoster = party == m.poster;
        if (isPoster) d.posterEvidenceHash = evidenceHash;
        else if (party == m.performer) d.performerEvidenceHash = evidenceHash;
        else revert Errors.MissionEscrow_NotParty(d.missionId, party);
        emit EvidenceSubmitted(disputeId, party, isPoster, evidenceHash);
    }

    /// @inheritdoc IMissionEscrow
    function resolveDispute(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external
    {
        Disputes.Dispute storage d = _dispute(disputeId);
        if (d.state != Disputes.State.Investigating) {
            revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        }
        address resolver = d.resolver;
        if (msg.sender != resolver && !operators.isAuthorized(resolver, msg.sender)) {
            revert Errors.MissionEscrow_NotResolver(disputeId, msg.sender);
        }
        if (block.timestamp >= d.deadline) revert Errors.MissionEscrow_DeadlinePassed(disputeId, d.deadline);
        _checkOutcome(outcome, splitPercentage);
        uint256 appealDeadline = block.timestamp + _windows[uint8(Missions.Window.Appeal)];
        d.state = Disputes.State.Resolved;
        d.outcome = outcome;
        d.splitPercentage = splitPercentage;
        d.resolutionHash = resolutionHash;
        d.deadline = uint32(appealDeadline);
        emit DisputeResolved(disputeId, resolver, outcome, splitPercentage, resolutionHash, appealDeadline);
    }

    /// @inheritdoc IMissionEscrow
    function appealDispute(uint256 disputeId, address appellant) external nonReentrant {
        // Checks
        Disputes.Dispute storage d = _dispute(disputeId);
        _checkParty(appellant);
        Missions.Record storage m = _missions[d.missionId];
        if (appellant != m.poster && appellant != m.performer) {
            revert Errors.MissionEscrow_NotParty(d.missionId, appellant);
        }
        if (d.state != Disputes.State.Resolved) revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        if (block.timestamp >= d.deadline) revert Errors.MissionEscrow_DeadlinePassed(disputeId, d.deadline);

        // Effects
        uint256 lpp = SettlementMath.reserveFor(m.reward);
        uint256 decisionDeadline = block.timestamp + _windows[uint8(Missions.Window.AppealDecision)];
        d.state = Disputes.State.Appealed;
        d.appellant = appellant;
        d.lppAmount = uint64(lpp);
        d.appealedOutcome = d.outcome;
        d.appealedSplitPercentage = d.splitPercentage;
        d.deadline = uint32(decisionDeadline);
        emit DisputeAppealed(disputeId, appellant, lpp, decisionDeadline);

        // Interactions
        _pull(appellant, lpp);
    }

    /// @inheritdoc IMissionEscrow
    function decideAppeal(uint256 disputeId, Disputes.Outcome outcome, uint8 splitPercentage, bytes32 resolutionHash)
        external
        nonReentrant
    {
        // Checks
        Disputes.Dispute storage d = _dispute(disputeId);
        _checkRole(APPEALS_ROLE, msg.sender);
        _checkNotParty(disputeId, d, msg.sender);
        if (msg.sender == d.resolver) revert Errors.MissionEscrow_SameResolver(disputeId, msg.sender);
        if (d.state != Disputes.State.Appealed) revert Errors.MissionEscrow_InvalidDisputeState(disputeId, d.state);
        if (block.timestamp >= d.deadline) revert Errors.MissionEscrow_DeadlinePassed(disputeId, d.deadline);
        _checkOutcome(outcome, splitPercentage);

        // Effects (and the payout's interactions in _finalize, after every write)
        bool overturned = outcome != d.appealedOutcome || splitPercentage != d.appealedSplitPercentage;
        d.outcome = outcome;
        d.splitPercentage = splitPercentage;
        d.resolutionHash = resolutionHash;
        emit AppealDecided(disputeId, msg.sender, outcome, splitPercentage, resolutionHash, overturned);
        _finalize(disputeId, d, overturned ? SettlementMath.Appeal.Overturned : SettlementMath.Appeal.Upheld, false);
    }

    /// @inheritdoc IMissionEscrow
    function finalizeDispute(uint256 disputeId) external nonReentrant {
        Disputes.Dispute storage d = _dispute(disputeId);
        Disputes.State state = d.state;
        if (state == Disputes.State.Resolved || state == Disputes.State.Appealed) {
            // The resolver's outcome stands: no appeal in time, or nobody decided the appeal (LPP refunded).
            if (block.timestamp < d.deadline) revert Errors.MissionEscrow_DeadlineNotReached(disputeId, d.deadline);
            _finalize(
                disputeId,
                d,
                state == Disputes.State.Appealed ? SettlementMath.Appeal.Undecided : SettlementMath.Appeal.None,
                false
            );
        } else if (state == Disputes.State.Pending || state == Disputes.State.Investigating) {
            // No decision by the timeout; an assigned resolver keeps its window to the end.
            uint256 deadline = d.timeoutAt;
            if (state == Disputes.State.Investigating && d.deadline > deadline) deadline = d.deadline;
            if (block.timestamp < deadline) revert Errors.MissionEscrow_DeadlineNotReached(disputeId, deadline);
            d.outcome = Disputes.Outcome.Split;
            d.splitPercentage = 50;
            _finalize(disputeId, d, SettlementMath.Appeal.None, true);
        } else {
            revert Errors.MissionEscrow_InvalidDisputeState(disputeId, state);
        }
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
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrow
    function token() external view returns (address) {
        return address(_token);
    }

    /// @inheritdoc IMissionEscrow
    function windowOf(Missions.Window window) external view returns (uint256) {
        return _windows[uint8(window)];
    }

    /// @notice The bounds `setWindow` accepts for `window`.
    function windowBounds(Missions.Window window) public pure returns (uint256 minimum, uint256 maximum) {
        if (window == Missions.Window.Review) return (3 days, 14 days);
        if (window == Missions.Window.AppealDecision) return (1 days, 30 days);
        if (window == Missions.Window.DisputeTimeout) return (7 days, 90 days);
        return (1 days, 14 days); // Resolution, Appeal
    }

    /// @inheritdoc IMissionEscrow
    function getMission(uint256 missionId) external view returns (Missions.Mission memory mission) {
        Missions.Record storage m = _missions[missionId];
        mission = Missions.Mission({
            poster: m.poster,
            reward: m.reward,
            guildId: m.guildId,
            performer: m.performer,
            expiresAt: m.expiresAt,
            reviewDeadline: m.reviewDeadline,
            state: m.state,
            guildFeeBps: m.guildFeeBps,
            detailsHash: m.detailsHash
        });
    }

    /// @inheritdoc IMissionEscrow
    function getDispute(uint256 disputeId) external view returns (Disputes.Dispute memory) {
        return _disputes[disputeId];
    }

    /// @inheritdoc IMissionEscrow
    function reserveFor(uint256 reward) external pure returns (uint256) {
        return SettlementMath.reserveFor(reward);
    }

    /// @inheritdoc IMissionEscrow
    function previewSettlement(uint256 reward, uint16 guildFeeBps) external pure returns (Missions.Settlement memory) {
        return SettlementMath.settle(reward, guildFeeBps);
    }

    /*//////////////////////////////////////////////////////////////
                                INTERNAL
    //////////////////////////////////////////////////////////////*/

    /// @dev Settles a Submitted mission into the five shares and pushes them.
    function _complete(uint256 missionId, Missions.Record storage m, bool byClaim)
        internal
        returns (Missions.Settlement memory s)
    {
        // Effects
        m.state = Missions.State.Completed;
        s = SettlementMath.settle(m.reward, m.guildFeeBps);
        address performer = m.performer;
        if (s.guildAmount != 0) guildFees[m.guildId] += s.guildAmount;
        emit MissionCompleted(missionId, performer, s, byClaim);

        // Interactions
        _push(performer, s.performerAmount);
        _push(protocolTreasury, s.protocolAmount);
        _push(labsTreasury, s.labsAmount);
    }

    /// @dev Pays out everything held for a dispute and closes it and its mission.
    function _finalize(uint256 disputeId, Disputes.Dispute storage d, SettlementMath.Appeal appeal, bool byDefault)
        internal
    {
        uint256 missionId = d.missionId;
        Missions.Record storage m = _missions[missionId];
        address poster = m.poster;
        Disputes.Outcome outcome = d.outcome;
        Disputes.Payout memory p = SettlementMath.disputePayout(
            SettlementMath.DisputeTerms({
                reward: m.reward,
                ddr: d.ddrAmount,
                lpp: d.lppAmount,
                guildFeeBps: m.guildFeeBps,
                outcome: outcome,
                splitPercentage: d.splitPercentage,
                resolverFee: !byDefault,
                initiatorIsPoster: d.initiator == poster,
                appeal: appeal,
                appellantIsPoster: d.appellant == poster
            })
        );
        if (!byDefault) p.resolver = d.resolver;

        // Effects
        d.state = Disputes.State.Finalized;
        Missions.State missionState = outcome == Disputes.Outcome.PosterWins || outcome == Disputes.Outcome.Cancelled
            ? Missions.State.Cancelled
            : Missions.State.Completed;
        m.state = missionState;
        if (p.guildAmount != 0) guildFees[m.guildId] += p.guildAmount;
        emit DisputeFinalized(disputeId, missionId, outcome, d.splitPercentage, missionState, p, byDefault);

        // Interactions
        _push(poster, p.posterAmount);
        _push(m.performer, p.performerAmount);
        _push(protocolTreasury, p.protocolAmount);
        _push(labsTreasury, p.labsAmount);
        _push(p.resolver, p.resolverAmount);
    }

    /// @dev Pulls exactly `amount` from `from`; a token that delivers less (fee on transfer) is rejected.
    function _pull(address from, uint256 amount) internal {
        uint256 balanceBefore = _token.balanceOf(address(this));
        _token.safeTransferFrom(from, address(this), amount);
        uint256 received = _token.balanceOf(address(this)) - balanceBefore;
        if (received != amount) revert Errors.MissionEscrow_TransferAmountMismatch(amount, received);
    }

    /// @dev Pushes `amount` to `to`; if the transfer fails, credits it for `withdraw` instead.
    function _push(address to, uint256 amount) internal {
        if (amount == 0) return;
        if (!_token.trySafeTransfer(to, amount)) {
            credits[to] += amount;
            emit Credited(to, amount);
        }
    }

    function _setTreasuries(address protocolTreasury_, address labsTreasury_) internal {
        if (protocolTreasury_ == address(0) || labsTreasury_ == address(0)) revert Errors.ZeroAddress();
        protocolTreasury = protocolTreasury_;
        labsTreasury = labsTreasury_;
        emit TreasurySet(protocolTreasury_, labsTreasury_);
    }

    function _mission(uint256 missionId) internal view returns (Missions.Record storage m) {
        m = _missions[missionId];
        if (m.poster == address(0)) revert Errors.MissionEscrow_MissionNotFound(missionId);
    }

    function _dispute(uint256 disputeId) internal view returns (Disputes.Dispute storage d) {
        d = _disputes[disputeId];
        if (d.state == Disputes.State.None) revert Errors.MissionEscrow_DisputeNotFound(disputeId);
    }

    /// @dev The caller acts for `party`: it is `party` or an operator `party` authorised.
    function _checkParty(address party) internal view {
        if (msg.sender != party && !operators.isAuthorized(party, msg.sender)) {
            revert Errors.Unauthorized(party, msg.sender);
        }
    }

    function _checkPoster(uint256 missionId, address poster) internal view {
        if (msg.sender != poster && !operators.isAuthorized(poster, msg.sender)) {
            revert Errors.MissionEscrow_NotPoster(missionId, msg.sender);
        }
    }

    function _checkOpenNotExpired(uint256 missionId, Missions.Record storage m) internal view {
        if (m.state != Missions.State.Open) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp >= m.expiresAt) revert Errors.MissionEscrow_Expired(missionId, m.expiresAt);
    }

    function _checkNotParty(uint256 disputeId, Disputes.Dispute storage d, address account) internal view {
        Missions.Record storage m = _missions[d.missionId];
        if (account == m.poster || account == m.performer) {
            revert Errors.MissionEscrow_ResolverIsParty(disputeId, account);
        }
    }

    function _checkOutcome(Disputes.Outcome outcome, uint8 splitPercentage) internal pure {
        bool valid = outcome == Disputes.Outcome.Split
            ? splitPercentage >= 1 && splitPercentage <= 99
            : outcome != Disputes.Outcome.None && splitPercentage == 0;
        if (!valid) revert Errors.MissionEscrow_InvalidOutcome(outcome, splitPercentage);
    }
}
