// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Metadata} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Metadata.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IGuildRegistry} from "../interfaces/IGuildRegistry.sol";
import {IMissionEscrowState} from "../interfaces/IMissionEscrowState.sol";
import {IOperatorRegistry} from "../interfaces/IOperatorRegistry.sol";
import {Errors} from "../libraries/Errors.sol";
import {SettlementMath} from "../libraries/SettlementMath.sol";
import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title MissionEscrowState
/// @notice The escrow's storage, views and the helpers both state machines share: lookups, party
/// checks and the token's pull and push. See IMissionEscrowState.
/// @dev Missions and disputes move the same funds, so they share this one storage layout in one
/// contract; DisputeCourt and MissionEscrow only add behaviour on top.
abstract contract MissionEscrowState is IMissionEscrowState, AccessControl, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /*//////////////////////////////////////////////////////////////
                               CONSTANTS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrowState
    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    /// @inheritdoc IMissionEscrowState
    bytes32 public constant APPEALS_ROLE = keccak256("APPEALS_ROLE");

    /// @inheritdoc IMissionEscrowState
    uint256 public constant PROTOCOL_FEE_BPS = SettlementMath.PROTOCOL_FEE_BPS;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant LABS_FEE_BPS = SettlementMath.LABS_FEE_BPS;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant RESOLVER_POOL_BPS = SettlementMath.RESOLVER_POOL_BPS;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant RESOLVER_DECISION_FEE = SettlementMath.RESOLVER_DECISION_FEE;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant RESERVE_BPS = SettlementMath.RESERVE_BPS;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MIN_RESERVE = SettlementMath.MIN_RESERVE;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MAX_GUILD_FEE_BPS = 1000;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MIN_REWARD = 1;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MAX_REWARD = type(uint48).max; // Missions.Record packs the reward in 48 bits
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MIN_DURATION = 60;
    /// @inheritdoc IMissionEscrowState
    uint256 public constant MAX_DURATION = 365 days;

    /*//////////////////////////////////////////////////////////////
                                STORAGE
    //////////////////////////////////////////////////////////////*/

    IERC20 internal immutable _token;
    /// @notice The registry of operators that may act for a party.
    IOperatorRegistry public immutable operators;
    /// @notice The registry whose guilds missions may be posted into.
    /// @dev Not declared in IMissionEscrowState: IGuildRegistry imports IMissionEscrow, which derives from
    /// IMissionEscrowState, and a base interface cannot sit in its derived interface's import cycle.
    IGuildRegistry public immutable guilds;

    /// @inheritdoc IMissionEscrowState
    address public protocolTreasury;
    /// @inheritdoc IMissionEscrowState
    address public labsTreasury;

    /// @dev Indexed by Missions.Window; five uint32 in one slot.
    uint32[5] internal _windows;

    /// @inheritdoc IMissionEscrowState
    uint256 public missionCount;
    /// @inheritdoc IMissionEscrowState
    uint256 public disputeCount;

    mapping(uint256 missionId => Missions.Record) internal _missions;
    mapping(uint256 disputeId => Disputes.Dispute) internal _disputes;
    /// @inheritdoc IMissionEscrowState
    mapping(uint256 missionId => uint256 disputeId) public disputeOf;
    /// @inheritdoc IMissionEscrowState
    mapping(address account => uint256 amount) public credits;
    /// @inheritdoc IMissionEscrowState
    mapping(uint32 guildId => uint256 amount) public guildFees;
    /// @dev The open settlement offers of each mission; live only while the mission is Submitted or
    /// Disputed (a mission that left those states never returns, so they are not cleared on the way out).
    mapping(uint256 missionId => Missions.Offers) internal _offers;
    /// @dev The resolver pool and the protocol and labs fees not yet withdrawn: one slot, see Missions.Accruals.
    Missions.Accruals internal _accruals;

    /*//////////////////////////////////////////////////////////////
                              CONSTRUCTOR
    //////////////////////////////////////////////////////////////*/

    /// @dev Requirements: no address is zero; the token has 6 decimals (amounts are base units of a
    /// dollar stablecoin everywhere, from the API's limits to the reserve floor).
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
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IMissionEscrowState
    function token() external view returns (address) {
        return address(_token);
    }

    /// @inheritdoc IMissionEscrowState
    function windowOf(Missions.Window window) external view returns (uint256) {
        return _windows[uint8(window)];
    }

    /// @inheritdoc IMissionEscrowState
    function windowBounds(Missions.Window window) public pure returns (uint256 minimum, uint256 maximum) {
        if (window == Missions.Window.Review) return (3 days, 14 days);
        if (window == Missions.Window.AppealDecision) return (1 days, 30 days);
        if (window == Missions.Window.DisputeTimeout) return (7 days, 90 days);
        return (1 days, 14 days); // Resolution, Appeal
    }

    /// @inheritdoc IMissionEscrowState
    function getMission(uint256 missionId) external view returns (Missions.Mission memory mission) {
        Missions.Record storage m = _missions[missionId];
        Missions.State state = m.state;
        bool open = state == Missions.State.Open; // slot 1 holds the terms, not the record (Missions.Record)
        mission = Missions.Mission({
            poster: m.poster,
            reward: m.reward,
            guildId: m.postedGuildId,
            performer: _performerOf(m),
            expiresAt: m.expiresAt,
            reviewDeadline: open || state == Missions.State.Accepted ? 0 : m.reviewDeadline, // the expiry until proof
            state: state,
            guildFeeBps: m.postedGuildFeeBps,
            detailsHash: open ? _terms(m) : bytes32(0),
            released: m.released,
            refunded: m.refunded
        });
    }

    /// @inheritdoc IMissionEscrowState
    function remainingOf(uint256 missionId) external view returns (uint256) {
        Missions.Record storage m = _missions[missionId];
        return _isLive(m.state) && m.poster != address(0) ? _remainder(m) : 0;
    }

    /// @inheritdoc IMissionEscrowState
    function offersOf(uint256 missionId)
        external
        view
        returns (
            bool posterOffered,
            uint256 posterPerformerAmount,
            bool performerOffered,
            uint256 performerPerformerAmount
        )
    {
        Missions.State state = _missions[missionId].state;
        if (state != Missions.State.Submitted && state != Missions.State.Disputed) return (false, 0, false, 0);
        Missions.Offers storage o = _offers[missionId];
        return (o.posterOffered, o.posterPerformerAmount, o.performerOffered, o.performerPerformerAmount);
    }

    /// @inheritdoc IMissionEscrowState
    function resolverPool() external view returns (uint256) {
        return _accruals.resolverPool;
    }

    /// @inheritdoc IMissionEscrowState
    function accruedFees() external view returns (uint256 protocolAmount, uint256 labsAmount) {
        return (_accruals.protocolFees, _accruals.labsFees);
    }

    /// @inheritdoc IMissionEscrowState
    function getDispute(uint256 disputeId) external view returns (Disputes.Dispute memory) {
        return _disputes[disputeId];
    }

    /// @inheritdoc IMissionEscrowState
    function reserveFor(uint256 reward) external pure returns (uint256) {
        return SettlementMath.reserveFor(reward);
    }

    /// @inheritdoc IMissionEscrowState
    function previewSettlement(uint256 reward, uint16 guildFeeBps) external pure returns (Missions.Settlement memory) {
        return SettlementMath.settle(reward, guildFeeBps);
    }

    /*//////////////////////////////////////////////////////////////
                                INTERNAL
    //////////////////////////////////////////////////////////////*/

    /// @dev Pulls exactly `amount` from `from`; a token that delivers less (fee on transfer) is rejected.
    function _pull(address from, uint256 amount) internal {
        uint256 balanceBefore = _balance();
        _token.safeTransferFrom(from, address(this), amount);
        uint256 received = _balance() - balanceBefore;
        if (received != amount) revert Errors.MissionEscrow_TransferAmountMismatch(amount, received);
    }

    /// @dev The escrow's own token balance: `balanceOf(address(this))` without the high-level call's code-size
    /// check and return-data copy (the token is a contract: the constructor read its decimals). Reverts
    /// (bubbling the reason) if the call does, like the high-level call.
    function _balance() private view returns (uint256 held) {
        address t = address(_token);
        assembly ("memory-safe") {
            mstore(0x00, 0x70a08231) // balanceOf(address)
            mstore(0x20, address())
            if iszero(and(gt(returndatasize(), 0x1f), staticcall(gas(), t, 0x1c, 0x24, 0x00, 0x20))) {
                returndatacopy(0x00, 0x00, returndatasize())
                revert(0x00, returndatasize())
            }
            held := mload(0x00)
        }
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

    /// @dev The mission `missionId`; reverts if it does not exist (creation requires a poster).
    function _mission(uint256 missionId) internal view returns (Missions.Record storage m) {
        m = _missions[missionId];
        if (m.poster == address(0)) revert Errors.MissionEscrow_MissionNotFound(missionId);
    }

    /// @dev The dispute `disputeId`; reverts if it does not exist (a raised dispute is never `None`).
    function _dispute(uint256 disputeId) internal view returns (Disputes.Dispute storage d) {
        d = _disputes[disputeId];
        if (d.state == Disputes.State.None) revert Errors.MissionEscrow_DisputeNotFound(disputeId);
    }

    /// @dev What the escrow still holds for the mission's reward: the reward less partial releases and
    /// refunds. Reads slot 2 only when one happened (`parts`, in the record: not while Open).
    function _remainder(Missions.Record storage m) internal view returns (uint256) {
        if (m.state == Missions.State.Open || !m.parts) return m.reward;
        return uint256(m.reward) - m.released - m.refunded;
    }

    /// @dev The performer: none while Open (slot 1 then holds the terms, Missions.Record).
    function _performerOf(Missions.Record storage m) internal view returns (address) {
        return m.state == Missions.State.Open ? address(0) : m.performer;
    }

    /// @dev The terms of an Open mission: slot 1 (Missions.Record).
    function _terms(Missions.Record storage m) internal view returns (bytes32 detailsHash) {
        assembly ("memory-safe") {
            detailsHash := sload(add(m.slot, 1))
        }
    }

    /// @dev Writes slot 1 as one word: the terms of an Open mission, or 0 (an empty record) when it leaves
    /// Open without a performer.
    function _setTerms(Missions.Record storage m, bytes32 detailsHash) internal {
        assembly ("memory-safe") {
            sstore(add(m.slot, 1), detailsHash)
        }
    }

    /// @dev The mission still holds its remainder: Open, Accepted, Submitted or Disputed.
    function _isLive(Missions.State state) internal pure returns (bool) {
        return state == Missions.State.Open || state == Missions.State.Accepted || state == Missions.State.Submitted
            || state == Missions.State.Disputed;
    }

    /// @dev Adds a settlement's pool share and its protocol and labs fees to the accruals: one slot, so one
    /// cold access for all three (no event: the settlement's event carries the amounts). Each amount is a share of at
    /// most a uint64 amount, so the casts are exact; the additions are checked.
    function _accrueFees(uint256 pool, uint256 protocolAmount, uint256 labsAmount) internal {
        Missions.Accruals memory a = _accruals; // one SLOAD, then one SSTORE (field by field: 3 of each)
        _accruals = Missions.Accruals(
            a.resolverPool + uint96(pool), a.protocolFees + uint80(protocolAmount), a.labsFees + uint80(labsAmount)
        );
    }

    /// @dev Accrues a settlement's guild fee, pool share and service fees (the effects of settling an
    /// amount to the performer; the performer's share is then pushed).
    function _accrue(Missions.Record storage m, Missions.Settlement memory s) internal {
        if (s.guildAmount != 0) guildFees[m.guildId] += s.guildAmount;
        _accrueFees(s.resolverAmount, s.protocolAmount, s.labsAmount);
    }

    /// @dev Takes what a deciding resolver is owed from the pool: RESOLVER_DECISION_FEE, or all the pool
    /// holds if less. Effects only: the caller emits ResolverPaid (when not zero) and pushes it.
    function _takeResolverFee() internal returns (uint256 amount, uint256 poolAfter) {
        uint256 pool = _accruals.resolverPool;
        amount = pool < RESOLVER_DECISION_FEE ? pool : RESOLVER_DECISION_FEE;
        poolAfter = pool - amount;
        if (amount != 0) _accruals.resolverPool = uint96(poolAfter);
    }

    /// @dev The caller acts for `party`: it is `party` or an operator `party` authorised.
    function _checkParty(address party) internal view {
        if (msg.sender != party && !operators.isAuthorized(party, msg.sender)) {
            revert Errors.Unauthorized(party, msg.sender);
        }
    }
}
