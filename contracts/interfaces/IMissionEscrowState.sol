// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title IMissionEscrowState
/// @notice The escrow's constants, storage getters and views, and the two events its shared payment
/// helpers emit. Part of IMissionEscrow; the escrow is one contract.
interface IMissionEscrowState {
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A push to `account` failed and `amount` was credited for `withdraw` instead.
    /// @param account The payee whose transfer failed (e.g. blacklisted by the token).
    /// @param amount The amount added to `credits(account)`, in the token's base units.
    event Credited(address indexed account, uint256 amount);

    /// @notice An admin changed the addresses receiving the protocol and labs shares (also emitted once by
    /// the constructor). Fees accrued and not yet withdrawn go to the addresses set when `withdrawFees` runs.
    /// @param protocolTreasury The new receiver of the protocol share.
    /// @param labsTreasury The new receiver of the labs share.
    event TreasurySet(address protocolTreasury, address labsTreasury);

    /// @notice The resolver who decided a dispute was paid from the resolver pool at its finalization (or
    /// at a settlement accepted while the resolver was assigned). Not emitted when the pool is empty.
    /// The pool's inflow has no event of its own: it is `resolverAmount` of every Settlement and
    /// `poolAmount` of every dispute Payout.
    /// @param disputeId The dispute.
    /// @param resolver The resolver paid (pushed, or credited if the push failed).
    /// @param amount RESOLVER_DECISION_FEE, or all the pool held if less.
    /// @param poolAfter What the pool holds after the payment.
    event ResolverPaid(uint256 indexed disputeId, address indexed resolver, uint256 amount, uint256 poolAfter);

    /*//////////////////////////////////////////////////////////////
                               CONSTANTS
    //////////////////////////////////////////////////////////////*/

    /// @notice The role a resolver must hold to take a dispute.
    /// @return The role's id, `keccak256("RESOLVER_ROLE")`.
    function RESOLVER_ROLE() external view returns (bytes32);

    /// @notice The role an appeals resolver must hold to decide an appeal.
    /// @return The role's id, `keccak256("APPEALS_ROLE")`.
    function APPEALS_ROLE() external view returns (bytes32);

    /// @notice The protocol's share of a settled reward.
    /// @return The share in basis points.
    function PROTOCOL_FEE_BPS() external view returns (uint256);

    /// @notice The labs' share of a settled reward.
    /// @return The share in basis points.
    function LABS_FEE_BPS() external view returns (uint256);

    /// @notice The resolver pool's part of the protocol share of every settlement (the treasury gets the
    /// rest).
    /// @return The part in basis points of the protocol share (2,000 = 20 %).
    function RESOLVER_POOL_BPS() external view returns (uint256);

    /// @notice What a resolver who decided a dispute is paid from the resolver pool (all the pool holds if
    /// less).
    /// @return The fee in the token's base units (5 USDC).
    function RESOLVER_DECISION_FEE() external view returns (uint256);

    /// @notice The dispute reserve (DDR) and appeal pool (LPP) as a share of the reward.
    /// @return The share in basis points.
    function RESERVE_BPS() external view returns (uint256);

    /// @notice The smallest DDR or LPP, whatever the reward.
    /// @return The floor in the token's base units.
    function MIN_RESERVE() external view returns (uint256);

    /// @notice The highest guild fee a mission accepts; a guild above it cannot take missions.
    /// @return The cap in basis points.
    function MAX_GUILD_FEE_BPS() external view returns (uint256);

    /// @notice The smallest reward of a mission.
    /// @return The reward in the token's base units.
    function MIN_REWARD() external view returns (uint256);

    /// @notice The largest reward of a mission: 2**48 - 1 base units, 281,474,976.710655 whole units (it is
    /// stored in 48 bits, beside the state, so that each step's first cold read has both).
    /// @return The reward in the token's base units.
    function MAX_REWARD() external view returns (uint256);

    /// @notice The shortest time from creation to expiry.
    /// @return The duration in seconds.
    function MIN_DURATION() external view returns (uint256);

    /// @notice The longest time from creation to expiry.
    /// @return The duration in seconds.
    function MAX_DURATION() external view returns (uint256);

    /*//////////////////////////////////////////////////////////////
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @notice The stablecoin every reward, DDR and LPP is paid in (6 decimals).
    /// @return The token's address.
    function token() external view returns (address);

    /// @notice The receiver of the protocol share (paid by `withdrawFees`, to the address set at that time).
    /// @return The treasury's address.
    function protocolTreasury() external view returns (address);

    /// @notice The receiver of the labs share (paid by `withdrawFees`, to the address set at that time).
    /// @return The treasury's address.
    function labsTreasury() external view returns (address);

    /// @notice The current length of `window`; it applies to deadlines set from now on.
    /// @param window The window to read.
    /// @return The length in seconds.
    function windowOf(Missions.Window window) external view returns (uint256);

    /// @notice The bounds `setWindow` accepts for `window`.
    /// @param window The window to read.
    /// @return minimum The shortest length in seconds.
    /// @return maximum The longest length in seconds.
    function windowBounds(Missions.Window window) external pure returns (uint256 minimum, uint256 maximum);

    /// @notice The mission `missionId`; all fields zero (poster address(0)) when it does not exist.
    /// `detailsHash` is the terms while the mission is Open and 0 once it left Open (the terms are then
    /// final: the last MissionCreated or MissionDetailsUpdated event; the escrow keeps only what its rules
    /// still read, see Missions.Record).
    /// @param missionId The mission's id (1-based).
    /// @return mission The mission.
    function getMission(uint256 missionId) external view returns (Missions.Mission memory mission);

    /// @notice What the escrow still holds of the mission's reward: reward − released − refunded while the
    /// mission is Open, Accepted, Submitted or Disputed; 0 once it is Completed, Cancelled or Expired (the
    /// final settlement paid the rest) or does not exist.
    /// @param missionId The mission's id.
    /// @return The remainder in the token's base units.
    function remainingOf(uint256 missionId) external view returns (uint256);

    /// @notice The open settlement offers on `missionId`, one per party, each the amount the performer
    /// would get of the remainder (the poster the rest). None outside Submitted and Disputed.
    /// @param missionId The mission's id.
    /// @return posterOffered Whether the poster has an offer open.
    /// @return posterPerformerAmount The poster's offer (performer's amount), 0 if none.
    /// @return performerOffered Whether the performer has an offer open.
    /// @return performerPerformerAmount The performer's offer (performer's amount), 0 if none.
    function offersOf(uint256 missionId)
        external
        view
        returns (
            bool posterOffered,
            uint256 posterPerformerAmount,
            bool performerOffered,
            uint256 performerPerformerAmount
        );

    /// @notice The resolver pool: funded by RESOLVER_POOL_BPS of the protocol share of every settlement,
    /// it pays RESOLVER_DECISION_FEE per decided dispute.
    /// @return The pool in the token's base units.
    function resolverPool() external view returns (uint256);

    /// @notice The protocol and labs fees accrued by settlements and not yet paid by `withdrawFees`.
    /// @return protocolAmount The protocol treasury's accrued share, in the token's base units.
    /// @return labsAmount The labs treasury's accrued share, in the token's base units.
    function accruedFees() external view returns (uint256 protocolAmount, uint256 labsAmount);

    /// @notice The dispute `disputeId`; state `None` when it does not exist.
    /// @param disputeId The dispute's id (1-based).
    /// @return The dispute.
    function getDispute(uint256 disputeId) external view returns (Disputes.Dispute memory);

    /// @notice The dispute raised on `missionId`; a mission is disputed at most once.
    /// @param missionId The mission's id.
    /// @return disputeId The dispute's id, or 0 if none.
    function disputeOf(uint256 missionId) external view returns (uint256 disputeId);

    /// @notice The number of missions created; ids run from 1 to it.
    /// @return The count.
    function missionCount() external view returns (uint256);

    /// @notice The number of disputes raised; ids run from 1 to it.
    /// @return The count.
    function disputeCount() external view returns (uint256);

    /// @notice The payouts held for `account` after failed pushes, claimable with `withdraw`.
    /// @param account The payee.
    /// @return amount The credited amount in the token's base units.
    function credits(address account) external view returns (uint256 amount);

    /// @notice The fees accrued to `guildId`, claimable with `withdrawGuildFees`.
    /// @param guildId The guild's id.
    /// @return amount The accrued amount in the token's base units.
    function guildFees(uint32 guildId) external view returns (uint256 amount);

    /// @notice The DDR (and LPP) a dispute of a mission with `reward` costs: RESERVE_BPS of it, at least
    /// MIN_RESERVE.
    /// @param reward The mission's reward in the token's base units.
    /// @return The reserve in the token's base units.
    function reserveFor(uint256 reward) external pure returns (uint256);

    /// @notice The settlement an approval of `reward` (or a release of that amount) with `guildFeeBps` pays.
    /// @param reward The amount settled in the token's base units.
    /// @param guildFeeBps The guild fee snapshotted on the mission, in basis points.
    /// @return The five shares (`resolverAmount`: the pool's part); they sum to `reward` exactly.
    function previewSettlement(uint256 reward, uint16 guildFeeBps)
        external
        pure
        returns (Missions.Settlement memory);
}
