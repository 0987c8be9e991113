// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ISettlements} from "./ISettlements.sol";
import {Missions} from "../types/DataTypes.sol";

/// @title IMissionEscrow
/// @notice Holds every reward, dispute reserve (DDR) and appeal pool (LPP) of the marketplace in one
/// stablecoin, and is the truth of every mission and dispute. Every state change emits an event that
/// carries all the indexer needs; indexing never reads storage.
/// @dev One deployed contract. Its surface is split like its code: IMissionEscrowState (constants, views),
/// IDisputeCourt (the disputes) and this interface (the missions, payments and admin).
/// Functions that act for a party take the party's address and accept either the party or an operator
/// the party authorised in the OperatorRegistry. Payouts are pushed to the party and fall back to a
/// credit (`withdraw`) when the push fails, so a payee that cannot receive never blocks anyone else.
/// The service's own shares accrue in the escrow instead: guild fees per guild (`withdrawGuildFees`),
/// protocol and labs fees beside the resolver pool (`withdrawFees`, issue 40).
/// Mission states: Open → Accepted → Submitted → Completed, or → Disputed (see IDisputeCourt); Open →
/// Cancelled; Open or Accepted → Expired; Submitted or Disputed → Completed or Cancelled by an accepted
/// settlement (ISettlements); Accepted or Submitted → Completed by releasing, or Cancelled by refunding,
/// the whole remainder. Money can leave an Accepted or Submitted mission in parts (`releasePartial`,
/// `refundPartial`); every later step acts on the remainder (`remainingOf`).
interface IMissionEscrow is ISettlements {
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A mission was created and its reward pulled from the poster.
    /// @param missionId The new mission's id, now Open.
    /// @param poster The party who posted and paid the reward.
    /// @param guildId The guild the mission is posted into, or 0 (data, not a topic: issue 40, G1 gas).
    /// @param reward The reward held in escrow, in the token's base units.
    /// @param expiresAt When the mission expires unless submitted (unix seconds).
    /// @param guildFeeBps The guild's fee snapshotted for this mission (0 outside a guild).
    /// @param detailsHash The commitment to the off-chain details.
    event MissionCreated(
        uint256 indexed missionId,
        address indexed poster,
        uint32 guildId,
        uint256 reward,
        uint256 expiresAt,
        uint16 guildFeeBps,
        bytes32 detailsHash
    );

    /// @notice The poster changed the off-chain details commitment of an Open mission.
    /// @param missionId The mission.
    /// @param previousDetailsHash The commitment replaced.
    /// @param detailsHash The new commitment.
    event MissionDetailsUpdated(uint256 indexed missionId, bytes32 previousDetailsHash, bytes32 detailsHash);

    /// @notice A performer accepted an Open mission. The commitment it accepted is the mission's current
    /// `detailsHash` (acceptance reverts on any other), so the event does not repeat it (issue 40, G1 gas):
    /// it is the last MissionCreated's or MissionDetailsUpdated's `detailsHash`.
    /// @param missionId The mission, now Accepted.
    /// @param performer The performer.
    event MissionAccepted(uint256 indexed missionId, address indexed performer);

    /// @notice The performer submitted proof; the poster may approve or dispute until `reviewDeadline`.
    /// The performer is the one MissionAccepted named (not repeated: issue 40, G1 gas).
    /// @param missionId The mission, now Submitted.
    /// @param proofHash The commitment to the off-chain proof.
    /// @param reviewDeadline The end of the review window (unix seconds).
    event MissionSubmitted(uint256 indexed missionId, bytes32 proofHash, uint256 reviewDeadline);

    /// @notice The remainder of the reward was settled into the five shares; the performer (the one
    /// MissionAccepted named; not repeated: issue 40, G1 gas) is paid `settlement.performerAmount`.
    /// @param missionId The mission, now Completed.
    /// @param settlement The five shares; they sum to the remainder exactly (the reward when nothing was
    /// released or refunded before).
    /// @param byClaim False for the poster's approval, true for a claim after the review window lapsed.
    event MissionCompleted(uint256 indexed missionId, Missions.Settlement settlement, bool byClaim);

    /// @notice The poster released `amount` of the remainder to the performer, settled as on approval.
    /// @param missionId The mission; Completed when `remaining` is 0, else unchanged.
    /// @param performer The performer, paid `settlement.performerAmount`.
    /// @param amount The amount released (gross, before fees).
    /// @param settlement The five shares of `amount`; they sum to it exactly.
    /// @param remaining The remainder after the release.
    event MissionReleased(
        uint256 indexed missionId,
        address indexed performer,
        uint256 amount,
        Missions.Settlement settlement,
        uint256 remaining
    );

    /// @notice The performer refunded `amount` of the remainder to the poster.
    /// @param missionId The mission; Cancelled when `remaining` is 0, else unchanged.
    /// @param poster The poster, paid `amount`.
    /// @param amount The amount refunded.
    /// @param remaining The remainder after the refund.
    event MissionRefunded(uint256 indexed missionId, address indexed poster, uint256 amount, uint256 remaining);

    /// @notice The poster cancelled an Open mission and got the reward back.
    /// @param missionId The mission, now Cancelled.
    /// @param poster The poster.
    /// @param refund The reward refunded, in the token's base units.
    event MissionCancelled(uint256 indexed missionId, address indexed poster, uint256 refund);

    /// @notice The mission passed its expiry unfinished (Open, or Accepted without proof) and the poster
    /// got the remainder back.
    /// @param missionId The mission, now Expired.
    /// @param poster The poster.
    /// @param performer The performer who never submitted, or address(0).
    /// @param refund The remainder refunded (the reward unless parts were released or refunded), in the
    /// token's base units.
    event MissionExpired(uint256 indexed missionId, address indexed poster, address performer, uint256 refund);

    /// @notice Credits of `account` were paid out to `account`.
    /// @param account The payee.
    /// @param amount The amount paid, in the token's base units.
    event Withdrawn(address indexed account, uint256 amount);

    /// @notice Guild fees of `guildId` were paid to its treasury.
    /// @param guildId The guild.
    /// @param treasury The guild's treasury at the time of payment.
    /// @param amount The amount paid, in the token's base units.
    event GuildFeesWithdrawn(uint32 indexed guildId, address indexed treasury, uint256 amount);

    /// @notice The accrued protocol and labs fees were paid to the treasuries (issue 40: settlements accrue
    /// them, `withdrawFees` pays them). One of the amounts may be 0 (that transfer is skipped); a failed
    /// transfer is credited to its treasury (`Credited`).
    /// @param protocolTreasury The protocol treasury at the time of payment.
    /// @param protocolAmount The protocol fees paid, in the token's base units.
    /// @param labsTreasury The labs treasury at the time of payment.
    /// @param labsAmount The labs fees paid, in the token's base units.
    event FeesWithdrawn(
        address indexed protocolTreasury, uint256 protocolAmount, address indexed labsTreasury, uint256 labsAmount
    );

    /// @notice An admin changed a time window.
    /// @param window The window, as `uint8(Missions.Window)`.
    /// @param value The new length in seconds.
    event WindowSet(uint8 indexed window, uint256 value);

    /*//////////////////////////////////////////////////////////////
                                MISSIONS
    //////////////////////////////////////////////////////////////*/

    /// @notice Creates a mission and pulls `reward` from `poster`.
    /// @dev Emits `MissionCreated`. Requirements:
    /// - the caller is `poster` or its operator.
    /// - `MIN_REWARD <= reward <= MAX_REWARD`.
    /// - `block.timestamp + MIN_DURATION <= expiresAt <= block.timestamp + MAX_DURATION`.
    /// - `guildId` is 0, or an existing guild whose fee is at most MAX_GUILD_FEE_BPS (snapshotted).
    /// - `detailsHash` is not zero.
    /// - the escrow receives exactly `reward` from `poster` (fee-on-transfer tokens are rejected).
    /// @param poster The party posting the mission; pays the reward.
    /// @param reward The reward, in the token's base units.
    /// @param expiresAt When the mission expires unless submitted (unix seconds).
    /// @param guildId The guild to post into, or 0.
    /// @param detailsHash The commitment to the off-chain details.
    /// @return missionId The new mission's id.
    function createMission(address poster, uint256 reward, uint256 expiresAt, uint32 guildId, bytes32 detailsHash)
        external
        returns (uint256 missionId);

    /// @notice Replaces the details commitment of an Open mission (the API's PATCH).
    /// @dev Emits `MissionDetailsUpdated`. Requirements:
    /// - the mission exists.
    /// - the caller is the poster or its operator.
    /// - the mission is Open and `block.timestamp < expiresAt`.
    /// - `detailsHash` is not zero.
    /// @param missionId The mission.
    /// @param detailsHash The new commitment.
    function updateDetails(uint256 missionId, bytes32 detailsHash) external;

    /// @notice `performer` accepts an Open mission, bound to the `detailsHash` they saw.
    /// @dev Emits `MissionAccepted`. Requirements:
    /// - the mission exists.
    /// - the caller is `performer` or its operator.
    /// - the mission is Open and `block.timestamp < expiresAt`.
    /// - `performer` is not the poster.
    /// - `detailsHash` equals the current commitment.
    /// @param missionId The mission.
    /// @param performer The performer accepting.
    /// @param detailsHash The commitment the performer saw.
    function acceptMission(uint256 missionId, address performer, bytes32 detailsHash) external;

    /// @notice The performer submits the hash of their proof, which starts the review window.
    /// @dev Emits `MissionSubmitted`. Requirements:
    /// - the mission exists.
    /// - the caller is the performer or its operator.
    /// - the mission is Accepted and `block.timestamp < expiresAt`.
    /// - `proofHash` is not zero.
    /// @param missionId The mission.
    /// @param proofHash The commitment to the off-chain proof.
    function submitProof(uint256 missionId, bytes32 proofHash) external;

    /// @notice The poster approves the proof and the remainder is settled and paid.
    /// @dev Emits `MissionCompleted`. Requirements:
    /// - the mission exists.
    /// - the caller is the poster or its operator.
    /// - the mission is Submitted.
    /// @param missionId The mission.
    /// @return settlement The five shares (the performer's pushed, the others accrued).
    function approveMission(uint256 missionId) external returns (Missions.Settlement memory settlement);

    /// @notice Anyone settles the remainder of a Submitted mission whose review window lapsed without
    /// approval or dispute.
    /// @dev Emits `MissionCompleted`. Requirements:
    /// - the mission exists and is Submitted.
    /// - `block.timestamp >= reviewDeadline`.
    /// @param missionId The mission.
    /// @return settlement The five shares (the performer's pushed, the others accrued).
    function claimAfterReview(uint256 missionId) external returns (Missions.Settlement memory settlement);

    /// @notice The poster cancels an Open mission; the full reward is refunded.
    /// @dev Emits `MissionCancelled`. Requirements:
    /// - the mission exists.
    /// - the caller is the poster or its operator.
    /// - the mission is Open.
    /// @param missionId The mission.
    /// @return refund The reward refunded to the poster.
    function cancelMission(uint256 missionId) external returns (uint256 refund);

    /// @notice Anyone expires a mission past its expiry that is Open, or Accepted without proof; the
    /// remainder is refunded to the poster.
    /// @dev Emits `MissionExpired`. Requirements:
    /// - the mission exists and is Open or Accepted.
    /// - `block.timestamp >= expiresAt`.
    /// @param missionId The mission.
    /// @return refund The remainder refunded to the poster.
    function expireMission(uint256 missionId) external returns (uint256 refund);

    /// @notice The poster releases `amount` of the remainder to the performer now, settled as on approval
    /// (the shares of `amount`); releasing the whole remainder completes the mission.
    /// @dev Emits `MissionReleased`. Clears both settlement offers. Requirements:
    /// - the mission exists.
    /// - the caller is the poster or its operator.
    /// - the mission is Accepted (also past its expiry, until someone expires it) or Submitted.
    /// - `1 <= amount <= remainingOf(missionId)`.
    /// @param missionId The mission.
    /// @param amount The amount released, in the token's base units (gross, before fees).
    /// @return settlement The five shares (the performer's pushed, the others accrued).
    function releasePartial(uint256 missionId, uint256 amount)
        external
        returns (Missions.Settlement memory settlement);

    /// @notice The performer refunds `amount` of the remainder to the poster now; refunding the whole
    /// remainder cancels the mission.
    /// @dev Emits `MissionRefunded`. Clears both settlement offers. Requirements:
    /// - the mission exists.
    /// - the caller is the performer or its operator.
    /// - the mission is Accepted (also past its expiry, until someone expires it) or Submitted.
    /// - `1 <= amount <= remainingOf(missionId)`.
    /// @param missionId The mission.
    /// @param amount The amount refunded, in the token's base units.
    function refundPartial(uint256 missionId, uint256 amount) external;

    /*//////////////////////////////////////////////////////////////
                               PAYMENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice Pays `account`'s credits to `account`. Anyone may call; the funds only go to `account`.
    /// @dev Emits `Withdrawn`. Requirements:
    /// - `credits(account)` is not zero.
    /// - the transfer to `account` succeeds.
    /// @param account The payee.
    /// @return amount The amount paid.
    function withdraw(address account) external returns (uint256 amount);

    /// @notice Pays the accrued fees of `guildId` to the guild's treasury. Anyone may call.
    /// @dev Emits `GuildFeesWithdrawn`. Requirements:
    /// - `guildFees(guildId)` is not zero.
    /// - the guild's treasury is not zero.
    /// - the transfer to the treasury succeeds.
    /// @param guildId The guild.
    /// @return amount The amount paid.
    function withdrawGuildFees(uint32 guildId) external returns (uint256 amount);

    /// @notice Pays the accrued protocol fees to `protocolTreasury` and the accrued labs fees to
    /// `labsTreasury` (the addresses set now). Anyone may call; the funds only go to the two treasuries.
    /// @dev Emits `FeesWithdrawn`; each non-zero amount is pushed like every payout: a transfer that fails
    /// (a blacklisted treasury) is credited to that treasury for `withdraw` (`Credited`), so one treasury
    /// never blocks the other. Requirements:
    /// - `accruedFees()` is not (0, 0).
    /// @return protocolAmount The amount paid to the protocol treasury.
    /// @return labsAmount The amount paid to the labs treasury.
    function withdrawFees() external returns (uint256 protocolAmount, uint256 labsAmount);

    /*//////////////////////////////////////////////////////////////
                                 ADMIN
    //////////////////////////////////////////////////////////////*/

    /// @notice Sets a time window. Applies to deadlines set afterwards only.
    /// @dev Emits `WindowSet`. Requirements:
    /// - the caller holds DEFAULT_ADMIN_ROLE.
    /// - `value` is within `windowBounds(window)`: Review 3..14 days, Resolution 1..14 days, Appeal
    ///   1..14 days, AppealDecision 1..30 days, DisputeTimeout 7..90 days.
    /// @param window The window to set.
    /// @param value The new length in seconds.
    function setWindow(Missions.Window window, uint256 value) external;

    /// @notice Sets the protocol and labs treasuries.
    /// @dev Emits `TreasurySet`. Requirements:
    /// - the caller holds DEFAULT_ADMIN_ROLE.
    /// - neither address is zero.
    /// @param protocolTreasury The new receiver of the protocol share.
    /// @param labsTreasury The new receiver of the labs share.
    function setTreasuries(address protocolTreasury, address labsTreasury) external;
}
