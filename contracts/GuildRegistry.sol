// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

import {IGuildRegistry} from "./interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "./interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "./interfaces/IOperatorRegistry.sol";
import {Errors} from "./libraries/Errors.sol";
import {Guilds, Missions} from "./types/DataTypes.sol";

/// @title GuildRegistry
/// @notice See the documentation in {IGuildRegistry}.
/// @dev Event order, which the indexer relies on:
/// - `createGuild` emits only `GuildCreated`: it implies that `admin` joined with every role (no
///   `MemberJoined` nor `RolesChanged` is emitted for the first member).
/// - `leave` of a member holding roles emits `RolesChanged(.., previousRoles, 0, member)` first, then
///   `MemberLeft`; a plain member emits only `MemberLeft`.
/// - `setRoles` always emits `RolesChanged`, even when the bits do not change.
/// The protocol admin (DEFAULT_ADMIN_ROLE) has no power over guilds: it only sets the escrow, once.
contract GuildRegistry is IGuildRegistry, AccessControl {
    /*//////////////////////////////////////////////////////////////
                               CONSTANTS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    uint16 public constant override MAX_FEE_BPS = 1000;

    uint256 private constant MIN_NAME_LENGTH = 3;
    uint256 private constant MAX_NAME_LENGTH = 32;
    uint8 private constant ALL_ROLES = Guilds.ROLE_CURATOR | Guilds.ROLE_OFFICER | Guilds.ROLE_ADMIN;

    /*//////////////////////////////////////////////////////////////
                                STORAGE
    //////////////////////////////////////////////////////////////*/

    IOperatorRegistry public immutable operators;

    /// @inheritdoc IGuildRegistry
    IMissionEscrow public override escrow;

    uint32 private _guildCount;
    mapping(uint32 guildId => Guilds.Guild) private _guilds;
    mapping(uint32 guildId => mapping(address account => Guilds.Member)) private _members;
    mapping(uint32 guildId => uint256) public adminCount;
    mapping(bytes32 nameHash => uint32 guildId) private _guildIdByName;
    mapping(uint32 guildId => mapping(uint256 missionId => bool)) private _onBoard;

    /*//////////////////////////////////////////////////////////////
                              CONSTRUCTOR
    //////////////////////////////////////////////////////////////*/

    constructor(IOperatorRegistry operators_, address admin) {
        if (address(operators_) == address(0) || admin == address(0)) revert Errors.ZeroAddress();
        operators = operators_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /*//////////////////////////////////////////////////////////////
                               MODIFIERS
    //////////////////////////////////////////////////////////////*/

    /// @dev The caller must be `account` or an operator `account` authorised.
    modifier onlyAuthorized(address account) {
        if (msg.sender != account && !operators.isAuthorized(account, msg.sender)) {
            revert Errors.Unauthorized(account, msg.sender);
        }
        _;
    }

    modifier guildMustExist(uint32 guildId) {
        if (!_guilds[guildId].exists) revert Errors.GuildRegistry_GuildNotFound(guildId);
        _;
    }

    /*//////////////////////////////////////////////////////////////
                           ADMIN FUNCTIONS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    function setEscrow(IMissionEscrow escrow_) external override onlyRole(DEFAULT_ADMIN_ROLE) {
        if (address(escrow_) == address(0)) revert Errors.ZeroAddress();
        if (address(escrow) != address(0)) revert Errors.GuildRegistry_EscrowAlreadySet(address(escrow));
        escrow = escrow_;
        emit EscrowSet(address(escrow_));
    }

    /*//////////////////////////////////////////////////////////////
                                GUILDS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    /// @dev `public` with memory strings: four calldata strings (two stack slots each) are too deep for the
    /// legacy code generator here.
    function createGuild(
        address admin,
        string memory name,
        string memory displayName,
        string memory description,
        string memory category,
        uint16 feeBps,
        address treasury
    ) public override onlyAuthorized(admin) returns (uint32 guildId) {
        if (!_isValidName(bytes(name))) revert Errors.GuildRegistry_InvalidName(name);
        bytes32 nameHash = keccak256(bytes(name));
        if (_guildIdByName[nameHash] != 0) revert Errors.GuildRegistry_NameTaken(name);
        _checkSettings(feeBps, treasury);

        guildId = ++_guildCount;
        _guildIdByName[nameHash] = guildId;
        _guilds[guildId] = Guilds.Guild({treasury: treasury, feeBps: feeBps, memberCount: 1, exists: true});
        _members[guildId][admin] =
            Guilds.Member({isMember: true, roles: ALL_ROLES, joinedAt: uint32(block.timestamp)});
        adminCount[guildId] = 1;

        emit GuildCreated(guildId, admin, name, displayName, description, category, feeBps, treasury);
    }

    /// @inheritdoc IGuildRegistry
    function updateGuildSettings(uint32 guildId, address admin, uint16 feeBps, address treasury)
        external
        override
        guildMustExist(guildId)
        onlyAuthorized(admin)
    {
        _checkRole(guildId, admin, Guilds.ROLE_ADMIN);
        _checkSettings(feeBps, treasury);
        Guilds.Guild storage guild = _guilds[guildId];
        guild.feeBps = feeBps;
        guild.treasury = treasury;
        emit GuildSettingsUpdated(guildId, feeBps, treasury);
    }

    /*//////////////////////////////////////////////////////////////
                               MEMBERS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    function join(uint32 guildId, address member)
        external
        override
        guildMustExist(guildId)
        onlyAuthorized(member)
    {
        if (_members[guildId][member].isMember) {
            revert Errors.GuildRegistry_AlreadyMember(guildId, member);
        }
        _members[guildId][member] =
            Guilds.Member({isMember: true, roles: 0, joinedAt: uint32(block.timestamp)});
        ++_guilds[guildId].memberCount;
        emit MemberJoined(guildId, member);
    }

    /// @inheritdoc IGuildRegistry
    function leave(uint32 guildId, address member)
        external
        override
        guildMustExist(guildId)
        onlyAuthorized(member)
    {
        Guilds.Member memory current = _members[guildId][member];
        if (!current.isMember) revert Errors.GuildRegistry_NotMember(guildId, member);
        if (current.roles & Guilds.ROLE_ADMIN != 0) {
            if (adminCount[guildId] == 1) revert Errors.GuildRegistry_LastAdmin(guildId, member);
            --adminCount[guildId];
        }

        delete _members[guildId][member];
        --_guilds[guildId].memberCount;

        if (current.roles != 0) emit RolesChanged(guildId, member, current.roles, 0, member);
        emit MemberLeft(guildId, member);
    }

    /// @inheritdoc IGuildRegistry
    function setRoles(uint32 guildId, address member, uint8 roles, address by)
        external
        override
        guildMustExist(guildId)
        onlyAuthorized(by)
    {
        if (roles & ~ALL_ROLES != 0) revert Errors.GuildRegistry_InvalidRoles(roles);
        uint8 byRoles = _memberRoles(guildId, by);
        Guilds.Member storage target = _members[guildId][member];
        if (!target.isMember) revert Errors.GuildRegistry_NotMember(guildId, member);
        uint8 previousRoles = target.roles;

        if (byRoles & Guilds.ROLE_ADMIN == 0) {
            if (byRoles & Guilds.ROLE_OFFICER == 0) {
                revert Errors.GuildRegistry_MissingRole(guildId, by, Guilds.ROLE_OFFICER);
            }
            // Officers toggle the curator bit of non-admins, nothing else.
            if (previousRoles & Guilds.ROLE_ADMIN != 0 || (previousRoles ^ roles) & ~Guilds.ROLE_CURATOR != 0)
            {
                revert Errors.GuildRegistry_MissingRole(guildId, by, Guilds.ROLE_ADMIN);
            }
        }

        bool wasAdmin = previousRoles & Guilds.ROLE_ADMIN != 0;
        bool isAdmin = roles & Guilds.ROLE_ADMIN != 0;
        if (wasAdmin && !isAdmin) {
            if (adminCount[guildId] == 1) revert Errors.GuildRegistry_LastAdmin(guildId, member);
            --adminCount[guildId];
        } else if (!wasAdmin && isAdmin) {
            ++adminCount[guildId];
        }

        target.roles = roles;
        emit RolesChanged(guildId, member, previousRoles, roles, by);
    }

    /*//////////////////////////////////////////////////////////////
                                BOARD
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    function publishToBoard(
        uint32 guildId,
        uint256 missionId,
        address curator,
        uint32 minGuildXP,
        bool featured,
        string calldata notes
    ) external override guildMustExist(guildId) onlyAuthorized(curator) {
        _checkRole(guildId, curator, Guilds.ROLE_CURATOR);
        IMissionEscrow escrow_ = escrow;
        if (address(escrow_) == address(0)) revert Errors.GuildRegistry_EscrowNotSet();
        Missions.Mission memory mission = escrow_.getMission(missionId);
        if (mission.poster == address(0)) revert Errors.GuildRegistry_MissionNotFound(missionId);
        if (mission.guildId != guildId) revert Errors.GuildRegistry_MissionNotInGuild(guildId, missionId);

        _onBoard[guildId][missionId] = true;
        emit BoardEntryPublished(guildId, missionId, curator, minGuildXP, featured, notes);
    }

    /// @inheritdoc IGuildRegistry
    function removeFromBoard(uint32 guildId, uint256 missionId, address curator)
        external
        override
        guildMustExist(guildId)
        onlyAuthorized(curator)
    {
        _checkRole(guildId, curator, Guilds.ROLE_CURATOR);
        if (!_onBoard[guildId][missionId]) revert Errors.GuildRegistry_NotOnBoard(guildId, missionId);
        delete _onBoard[guildId][missionId];
        emit BoardEntryRemoved(guildId, missionId, curator);
    }

    /*//////////////////////////////////////////////////////////////
                                VIEWS
    //////////////////////////////////////////////////////////////*/

    /// @inheritdoc IGuildRegistry
    function guildExists(uint32 guildId) external view override returns (bool) {
        return _guilds[guildId].exists;
    }

    /// @inheritdoc IGuildRegistry
    function guildFeeBps(uint32 guildId) external view override returns (uint16) {
        return _guilds[guildId].feeBps;
    }

    /// @inheritdoc IGuildRegistry
    function guildTreasury(uint32 guildId) external view override returns (address) {
        return _guilds[guildId].treasury;
    }

    /// @inheritdoc IGuildRegistry
    function isMember(uint32 guildId, address account) external view override returns (bool) {
        return _members[guildId][account].isMember;
    }

    /// @inheritdoc IGuildRegistry
    function rolesOf(uint32 guildId, address account) external view override returns (uint8) {
        return _members[guildId][account].roles;
    }

    /// @inheritdoc IGuildRegistry
    function guildCount() external view override returns (uint256) {
        return _guildCount;
    }

    /// @inheritdoc IGuildRegistry
    function getGuild(uint32 guildId) external view override returns (Guilds.Guild memory) {
        return _guilds[guildId];
    }

    /// @inheritdoc IGuildRegistry
    function getMember(uint32 guildId, address account)
        external
        view
        override
        returns (Guilds.Member memory)
    {
        return _members[guildId][account];
    }

    /// @inheritdoc IGuildRegistry
    function guildIdByName(string calldata name) external view override returns (uint32) {
        return _guildIdByName[keccak256(bytes(name))];
    }

    /// @inheritdoc IGuildRegistry
    function isOnBoard(uint32 guildId, uint256 missionId) external view override returns (bool) {
        return _onBoard[guildId][missionId];
    }

    /*//////////////////////////////////////////////////////////////
                               INTERNAL
    //////////////////////////////////////////////////////////////*/

    function _checkSettings(uint16 feeBps, address treasury) private pure {
        if (feeBps > MAX_FEE_BPS) revert Errors.GuildRegistry_FeeTooHigh(feeBps, MAX_FEE_BPS);
        if (treasury == address(0)) revert Errors.ZeroAddress();
    }

    /// @dev The roles of `account`, which must be a member.
    function _memberRoles(uint32 guildId, address account) private view returns (uint8) {
        Guilds.Member storage m = _members[guildId][account];
        if (!m.isMember) revert Errors.GuildRegistry_NotMember(guildId, account);
        return m.roles;
    }

    /// @dev Reverts unless `account` is a member holding `role`.
    function _checkRole(uint32 guildId, address account, uint8 role) private view {
        if (_memberRoles(guildId, account) & role == 0) {
            revert Errors.GuildRegistry_MissingRole(guildId, account, role);
        }
    }

    /// @dev A slug: 3..32 chars of [a-z0-9-], neither starting nor ending with a hyphen.
    function _isValidName(bytes memory name) private pure returns (bool) {
        uint256 length = name.length;
        if (length < MIN_NAME_LENGTH || length > MAX_NAME_LENGTH) return false;
        if (name[0] == "-" || name[length - 1] == "-") return false;
        for (uint256 i; i < length; ++i) {
            bytes1 c = name[i];
            if (!((c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "-")) return false;
        }
        return true;
    }
}
