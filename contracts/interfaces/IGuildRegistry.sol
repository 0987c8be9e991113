// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Guilds} from "../types/DataTypes.sol";
import {IMissionEscrow} from "./IMissionEscrow.sol";

/// @title IGuildRegistry
/// @notice Guilds, their members and roles, and their mission boards. A guild's fee (basis points,
/// capped at MAX_FEE_BPS) is taken from rewards of missions posted into it and paid to its treasury.
/// @dev Role bits: ROLE_CURATOR = 1, ROLE_OFFICER = 2, ROLE_ADMIN = 4 (Guilds library). Admins manage
/// every role and the guild's settings; officers grant and revoke the curator role; curators publish
/// to the board. Functions that act for a member take the member's address and accept the member or
/// an operator they authorised in the OperatorRegistry.
interface IGuildRegistry {
    /// @notice A guild was created; `admin` is its first member, with every role.
    /// @dev The only event of `createGuild`: no `MemberJoined` nor `RolesChanged` follows for `admin`.
    event GuildCreated(
        uint32 indexed guildId,
        address indexed admin,
        string name,
        string displayName,
        string description,
        string category,
        uint16 feeBps,
        address treasury
    );

    /// @notice An admin changed the guild's fee or treasury (applies to missions created afterwards).
    event GuildSettingsUpdated(uint32 indexed guildId, uint16 feeBps, address treasury);

    event MemberJoined(uint32 indexed guildId, address indexed member);
    event MemberLeft(uint32 indexed guildId, address indexed member);

    /// @notice The role bits of `member` changed from `previousRoles` to `roles`, by `by`.
    event RolesChanged(uint32 indexed guildId, address indexed member, uint8 previousRoles, uint8 roles, address by);

    /// @notice A curator published a mission of the guild to its board (re-publishing updates the entry).
    event BoardEntryPublished(
        uint32 indexed guildId,
        uint256 indexed missionId,
        address indexed curator,
        uint32 minGuildXP,
        bool featured,
        string notes
    );

    event BoardEntryRemoved(uint32 indexed guildId, uint256 indexed missionId, address indexed by);

    /// @notice The protocol admin set the escrow whose missions may be published to boards (once).
    event EscrowSet(address indexed escrow);

    /// @notice Creates a guild with `admin` as its first member holding every role.
    /// @dev Requirements: caller is `admin` or its operator; `name` is a unique slug of 3..32 chars
    /// [a-z0-9-]; `feeBps <= MAX_FEE_BPS`; `treasury` is not zero.
    function createGuild(
        address admin,
        string calldata name,
        string calldata displayName,
        string calldata description,
        string calldata category,
        uint16 feeBps,
        address treasury
    ) external returns (uint32 guildId);

    function updateGuildSettings(uint32 guildId, address admin, uint16 feeBps, address treasury) external;

    /// @notice `member` joins the guild. Caller is `member` or its operator.
    function join(uint32 guildId, address member) external;

    /// @notice `member` leaves the guild and loses its roles. The last admin cannot leave.
    /// @dev A member holding roles gets `RolesChanged(guildId, member, previousRoles, 0, member)` first,
    /// then `MemberLeft`; a plain member only `MemberLeft`.
    function leave(uint32 guildId, address member) external;

    /// @notice `by` sets the role bits of `member`. Admins may set any bits; officers may only add or
    /// remove the curator bit of non-admins. The last admin cannot drop its admin bit.
    function setRoles(uint32 guildId, address member, uint8 roles, address by) external;

    /// @notice `curator` publishes a mission of this guild (its `guildId` in the escrow) to the board.
    function publishToBoard(
        uint32 guildId,
        uint256 missionId,
        address curator,
        uint32 minGuildXP,
        bool featured,
        string calldata notes
    ) external;

    function removeFromBoard(uint32 guildId, uint256 missionId, address curator) external;

    /// @notice Sets the escrow that publishToBoard reads missions from.
    /// @dev Requirements: caller holds DEFAULT_ADMIN_ROLE; not set yet; `escrow_` is not zero.
    function setEscrow(IMissionEscrow escrow_) external;

    function MAX_FEE_BPS() external view returns (uint16);
    function escrow() external view returns (IMissionEscrow);
    function getGuild(uint32 guildId) external view returns (Guilds.Guild memory);
    function getMember(uint32 guildId, address account) external view returns (Guilds.Member memory);
    /// @notice The id of the guild named `name`, or 0.
    function guildIdByName(string calldata name) external view returns (uint32);
    function isOnBoard(uint32 guildId, uint256 missionId) external view returns (bool);
    function guildExists(uint32 guildId) external view returns (bool);
    function guildFeeBps(uint32 guildId) external view returns (uint16);
    function guildTreasury(uint32 guildId) external view returns (address);
    function isMember(uint32 guildId, address account) external view returns (bool);
    function rolesOf(uint32 guildId, address account) external view returns (uint8);
    function guildCount() external view returns (uint256);
}
