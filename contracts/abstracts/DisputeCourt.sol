// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IDisputeCourt} from "../interfaces/IDisputeCourt.sol";
import {Errors} from "../libraries/Errors.sol";
import {SettlementMath} from "../libraries/SettlementMath.sol";
import {Missions, Disputes} from "../types/DataTypes.sol";
import {MissionEscrowState} from "./MissionEscrowState.sol";

/// @title DisputeCourt
/// @notice The dispute state machine of the escrow: raise, assign, evidence, resolve, appeal, finalize.
/// See IDisputeCourt.
/// @dev Abstract: it is deployed only as part of MissionEscrow, whose missions it settles. It reads and
/// closes missions through the shared storage of MissionEscrowState.
abstract contract DisputeCourt is IDisputeCourt, MissionEscrowState {
    /*//////////////////////////////////////////////////////////////
                               DISPUTES
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IDisputeCourt
    function raiseDispute(uint256 missionId, address initiator, bytes32 reasonHash)
        external
        nonReentrant
        returns (uint256 disputeId)
    {
        // Checks
        Missions.Record storage m = _mission(missionId);
        _checkParty(initiator);
        if (initiator != m.poster && initiator != _performerOf(m)) {
            revert Errors.MissionEscrow_NotParty(missionId, initiator);
        }
        if (m.state != Missions.State.Submitted) revert Errors.MissionEscrow_InvalidState(missionId, m.state);
        if (block.timestamp >= m.reviewDeadline) {
            revert Errors.MissionEscrow_ReviewWindowClosed(missionId, m.reviewDeadline);
        }

        // Effects
        uint256 ddr = SettlementMath.reserveFor(_remainder(m));
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

    /// @inheritdoc IDisputeCourt
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

    /// @inheritdoc IDisputeCourt
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

    /// @inheritdoc IDisputeCourt
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

    /// @inheritdoc IDisputeCourt
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

    /// @inheritdoc IDisputeCourt
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
        uint256 lpp = SettlementMath.reserveFor(_remainder(m));
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

    /// @inheritdoc IDisputeCourt
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

    /// @inheritdoc IDisputeCourt
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
                                INTERNAL
    //////////////////////////////////////////////////////////////*/

    /// @dev Pays out everything held for a dispute by its outcome and closes it and its mission.
    function _finalize(uint256 disputeId, Disputes.Dispute storage d, SettlementMath.Appeal appeal, bool byDefault)
        internal
    {
        Missions.Record storage m = _missions[d.missionId];
        address poster = m.poster;
        uint256 reward = _remainder(m);
        Disputes.Outcome outcome = d.outcome;
        Disputes.Payout memory p = SettlementMath.disputePayout(
            SettlementMath.DisputeTerms({
                reward: reward,
                ddr: d.ddrAmount,
                lpp: d.lppAmount,
                guildFeeBps: m.guildFeeBps,
                outcome: outcome,
                performerPart: outcome == Disputes.Outcome.Split ? SettlementMath.splitPart(reward, d.splitPercentage) : 0,
                initiatorIsPoster: d.initiator == poster,
                appeal: appeal,
                appellantIsPoster: d.appellant == poster
            })
        );
        Missions.State missionState = outcome == Disputes.Outcome.PosterWins || outcome == Disputes.Outcome.Cancelled
            ? Missions.State.Cancelled
            : Missions.State.Completed;
        // The resolver who decided is paid from the pool; nobody on the default outcome.
        _closeDispute(disputeId, d, m, p, missionState, !byDefault, byDefault);
    }

    /// @dev Closes a dispute and its mission with payout `p` (whose `resolverAmount` is filled here): the
    /// guild fee, the pool's share and the protocol and labs fees accrue, the resolver is paid from the pool
    /// when `payResolver`, then the parties' and the resolver's shares are pushed.
    function _closeDispute(
        uint256 disputeId,
        Disputes.Dispute storage d,
        Missions.Record storage m,
        Disputes.Payout memory p,
        Missions.State missionState,
        bool payResolver,
        bool byDefault
    ) internal {
        // Effects
        d.state = Disputes.State.Finalized;
        m.state = missionState;
        if (p.guildAmount != 0) guildFees[m.guildId] += p.guildAmount;
        // First: a decision is paid from a pool that includes this dispute's share.
        _accrueFees(p.poolAmount, p.protocolAmount, p.labsAmount);
        uint256 poolAfter;
        if (payResolver) {
            p.resolver = d.resolver;
            (p.resolverAmount, poolAfter) = _takeResolverFee();
        }
        emit DisputeFinalized(disputeId, d.missionId, d.outcome, d.splitPercentage, missionState, p, byDefault);
        if (p.resolverAmount != 0) emit ResolverPaid(disputeId, p.resolver, p.resolverAmount, poolAfter);

        // Interactions
        _push(m.poster, p.posterAmount);
        _push(m.performer, p.performerAmount);
        _push(p.resolver, p.resolverAmount);
    }

    /// @dev Reverts when `account` is the poster or the performer of the disputed mission.
    function _checkNotParty(uint256 disputeId, Disputes.Dispute storage d, address account) internal view {
        Missions.Record storage m = _missions[d.missionId];
        if (account == m.poster || account == m.performer) {
            revert Errors.MissionEscrow_ResolverIsParty(disputeId, account);
        }
    }

    /// @dev Split carries the performer's share (1..99); every other decision carries 0.
    function _checkOutcome(Disputes.Outcome outcome, uint8 splitPercentage) internal pure {
        bool valid = outcome == Disputes.Outcome.Split
            ? splitPercentage >= 1 && splitPercentage <= 99
            : outcome != Disputes.Outcome.None && splitPercentage == 0;
        if (!valid) revert Errors.MissionEscrow_InvalidOutcome(outcome, splitPercentage);
    }
}
