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
    /*//////////////////////////////////////////////////////////////
                                EVENTS
    //////////////////////////////////////////////////////////////*/

    /// @notice A guild was created; `admin` is its first member, with every role.
    /// @dev The only event of `createGuild`: no `MemberJoined` nor `RolesChanged` follows for `admin`.
    /// @param guildId The new guild's id.
    /// @param admin The first member, holding every role.
    /// @param name The unique slug.
    /// @param displayName The display name.
    /// @param description The description.
    /// @param category The category.
    /// @param feeBps The guild's fee in basis points.
    /// @param treasury The receiver of the guild's fees.
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
    /// @param guildId The guild.
    /// @param feeBps The new fee in basis points.
    /// @param treasury The new treasury.
    event GuildSettingsUpdated(uint32 indexed guildId, uint16 feeBps, address treasury);

    /// @notice `member` joined the guild, with no roles.
    /// @param guildId The guild.
    /// @param member The new member.
    event MemberJoined(uint32 indexed guildId, address indexed member);

    /// @notice `member` left the guild.
    /// @param guildId The guild.
    /// @param member The former member.
    event MemberLeft(uint32 indexed guildId, address indexed member);

    /// @notice The role bits of `member` changed from `previousRoles` to `roles`, by `by`.
    /// @param guildId The guild.
    /// @param member The member whose roles changed.
    /// @param previousRoles The former role bits.
    /// @param roles The new role bits.
    /// @param by The member who changed them (`member` itself when leaving).
    event RolesChanged(uint32 indexed guildId, address indexed member, uint8 previousRoles, uint8 roles, address by);

    /// @notice A curator published a mission of the guild to its board (re-publishing updates the entry).
    /// @param guildId The guild.
    /// @param missionId The mission (the escrow's id).
    /// @param curator The curator who published.
    /// @param minGuildXP The least guild XP the curator asks of a performer (shown, not enforced here).
    /// @param featured True to feature the entry.
    /// @param notes The curator's notes.
    event BoardEntryPublished(
        uint32 indexed guildId,
        uint256 indexed missionId,
        address indexed curator,
        uint32 minGuildXP,
        bool featured,
        string notes
    );

    /// @notice A curator removed a mission from the guild's board.
    /// @param guildId The guild.
    /// @param missionId The mission.
    /// @param by The curator who removed it.
    event BoardEntryRemoved(uint32 indexed guildId, uint256 indexed missionId, address indexed by);

    /// @notice The protocol admin set the escrow whose missions may be published to boards (once).
    /// @param escrow The escrow.
    event EscrowSet(address indexed escrow);

    /*//////////////////////////////////////////////////////////////
                               FUNCTIONS
    //////////////////////////////////////////////////////////////*/

    /// @notice Creates a guild with `admin` as its first member holding every role.
    /// @dev Emits `GuildCreated`. Requirements:
    /// - the caller is `admin` or its operator.
    /// - `name` is a slug of 3..32 characters in [a-z0-9-] that no other guild holds.
    /// - `feeBps <= MAX_FEE_BPS`; `treasury` is not zero.
    /// @param admin The first member, holding every role.
    /// @param name The unique slug.
    /// @param displayName The display name.
    /// @param description The description.
    /// @param category The category.
    /// @param feeBps The guild's fee in basis points.
    /// @param treasury The receiver of the guild's fees.
    /// @return guildId The new guild's id.
    function createGuild(
        address admin,
        string calldata name,
        string calldata displayName,
        string calldata description,
        string calldata category,
        uint16 feeBps,
        address treasury
    ) external returns (uint32 guildId);

    /// @notice Changes the guild's fee and treasury, for missions created afterwards.
    /// @dev Emits `GuildSettingsUpdated`. Requirements:
    /// - the guild exists; the caller is `admin` or its operator; `admin` holds ROLE_ADMIN in the guild.
    /// - `feeBps <= MAX_FEE_BPS`; `treasury` is not zero.
    /// @param guildId The guild.
    /// @param admin The guild admin acting.
    /// @param feeBps The new fee in basis points.
    /// @param treasury The new treasury.
    function updateGuildSettings(uint32 guildId, address admin, uint16 feeBps, address treasury) external;

    /// @notice `member` joins the guild, with no roles.
    /// @dev Emits `MemberJoined`. Requirements:
    /// - the guild exists; the caller is `member` or its operator.
    /// - `member` is not a member yet.
    /// @param guildId The guild.
    /// @param member The account joining.
    function join(uint32 guildId, address member) external;

    /// @notice `member` leaves the guild and loses its roles.
    /// @dev A member holding roles gets `RolesChanged(guildId, member, previousRoles, 0, member)` first,
    /// then `MemberLeft`; a plain member only `MemberLeft`. Requirements:
    /// - the guild exists; the caller is `member` or its operator.
    /// - `member` is a member and not the guild's last admin.
    /// @param guildId The guild.
    /// @param member The member leaving.
    function leave(uint32 guildId, address member) external;

    /// @notice `by` sets the role bits of `member`.
    /// @dev Emits `RolesChanged`. Requirements:
    /// - the guild exists; the caller is `by` or its operator; `roles` has no bit beyond the three roles.
    /// - `by` and `member` are members.
    /// - `by` holds ROLE_ADMIN, or `by` holds ROLE_OFFICER, `member` is not an admin and only the curator
    ///   bit changes (else `GuildRegistry_MissingRole(.., by, ROLE_ADMIN)`).
    /// - the last admin does not lose ROLE_ADMIN.
    /// @param guildId The guild.
    /// @param member The member whose roles change.
    /// @param roles The new role bits.
    /// @param by The admin or officer acting.
    function setRoles(uint32 guildId, address member, uint8 roles, address by) external;

    /// @notice `curator` publishes a mission of this guild (its `guildId` in the escrow) to the board;
    /// re-publishing updates the entry.
    /// @dev Emits `BoardEntryPublished`. Requirements:
    /// - the guild exists; the caller is `curator` or its operator; `curator` holds ROLE_CURATOR.
    /// - the escrow is set; the mission exists there and belongs to the guild.
    /// @param guildId The guild.
    /// @param missionId The mission (the escrow's id).
    /// @param curator The curator acting.
    /// @param minGuildXP The least guild XP the curator asks of a performer (shown, not enforced here).
    /// @param featured True to feature the entry.
    /// @param notes The curator's notes.
    function publishToBoard(
        uint32 guildId,
        uint256 missionId,
        address curator,
        uint32 minGuildXP,
        bool featured,
        string calldata notes
    ) external;

    /// @notice `curator` removes a mission from the board.
    /// @dev Emits `BoardEntryRemoved`. Requirements:
    /// - the guild exists; the caller is `curator` or its operator; `curator` holds ROLE_CURATOR.
    /// - the mission is on the board.
    /// @param guildId The guild.
    /// @param missionId The mission.
    /// @param curator The curator acting.
    function removeFromBoard(uint32 guildId, uint256 missionId, address curator) external;

    /// @notice Sets the escrow that publishToBoard reads missions from.
    /// @dev Emits `EscrowSet`. Requirements:
    /// - the caller holds DEFAULT_ADMIN_ROLE.
    /// - the escrow is not set yet; `escrow_` is not zero.
    /// @param escrow_ The escrow.
    function setEscrow(IMissionEscrow escrow_) external;

    /*//////////////////////////////////////////////////////////////
                                 VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @notice The highest fee a guild may set.
    /// @return The cap in basis points.
    function MAX_FEE_BPS() external view returns (uint16);

    /// @notice The escrow whose missions may be published.
    /// @return The escrow, or address(0) before `setEscrow`.
    function escrow() external view returns (IMissionEscrow);

    /// @notice The guild `guildId`.
    /// @param guildId The guild.
    /// @return The guild (all fields zero when it does not exist).
    function getGuild(uint32 guildId) external view returns (Guilds.Guild memory);

    /// @notice The membership of `account` in `guildId`.
    /// @param guildId The guild.
    /// @param account The account.
    /// @return The membership (`isMember` false when none).
    function getMember(uint32 guildId, address account) external view returns (Guilds.Member memory);

    /// @notice The id of the guild named `name`.
    /// @param name The slug.
    /// @return The guild's id, or 0.
    function guildIdByName(string calldata name) external view returns (uint32);

    /// @notice True when the mission is on the guild's board.
    /// @param guildId The guild.
    /// @param missionId The mission.
    /// @return True when published and not removed.
    function isOnBoard(uint32 guildId, uint256 missionId) external view returns (bool);

    /// @notice True when the guild exists.
    /// @param guildId The guild.
    /// @return True when created.
    function guildExists(uint32 guildId) external view returns (bool);

    /// @notice The guild's current fee.
    /// @param guildId The guild.
    /// @return The fee in basis points.
    function guildFeeBps(uint32 guildId) external view returns (uint16);

    /// @notice The guild's current treasury.
    /// @param guildId The guild.
    /// @return The treasury, or address(0) when the guild does not exist.
    function guildTreasury(uint32 guildId) external view returns (address);

    /// @notice True when `account` is a member of the guild.
    /// @param guildId The guild.
    /// @param account The account.
    /// @return True when a member.
    function isMember(uint32 guildId, address account) external view returns (bool);

    /// @notice The role bits of `account` in the guild.
    /// @param guildId The guild.
    /// @param account The account.
    /// @return The bits (0 for a plain member or a non-member).
    function rolesOf(uint32 guildId, address account) external view returns (uint8);

    /// @notice The number of guilds created.
    /// @return The count; ids run from 1 to it.
    function guildCount() external view returns (uint256);
}
